import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { IdentityContext } from '../context.js';
import { loginAnswer, loginBody } from '../schemas.js';

/** POST /api/auth/login (public, rate-limited). */
export function authRoutes(scope: FastifyInstance, ctx: IdentityContext): void {
  scope.withTypeProvider<ZodTypeProvider>().post(
    '/auth/login',
    {
      schema: {
        tags: ['identity'],
        summary: 'Connexion : 401 identifiants incorrects, 406 compte non activé',
        body: loginBody,
        response: { 200: loginAnswer },
      },
      preHandler: ctx.limitAttempts,
    },
    async (request) => ctx.auth.login(request.body.email, request.body.password),
  );
}
