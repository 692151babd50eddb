import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ValidationError } from '@filiere/platform';
import type { IdentityContext } from '../context.js';
import { changePasswordBody, email, okSchema, text, userSchema } from '../schemas.js';
import { toUserDto } from '../repository.js';

const tags = ['profile'];
const WRONG_OLD = 'Modification non effectuée';
const security = [{ bearer: [] }];

/** The signed-in user's own account: GET /users/me, one-field edits, password change. */
export function profileRoutes(scope: FastifyInstance, ctx: IdentityContext): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/users/me',
    {
      schema: { tags, security, summary: 'L’utilisateur connecté', response: { 200: userSchema } },
      preHandler: ctx.guard(),
    },
    async (request) => toUserDto(request.actor!),
  );

  const fields = { firstname: text(), lastname: text(), email } as const;
  for (const field of ['firstname', 'lastname', 'email'] as const) {
    app.patch(
      `/users/me/${field}`,
      {
        schema: {
          tags,
          security,
          summary: `Modifie le champ ${field} de son profil`,
          body: z.object({ [field]: fields[field] }),
          response: { 200: userSchema },
        },
        preHandler: ctx.guard(),
      },
      async (request) =>
        ctx.users.updateOwn(
          request.actor!,
          field,
          (request.body as Record<string, string>)[field]!,
        ),
    );
  }

  app.post(
    '/users/me/password',
    {
      schema: {
        tags,
        security,
        summary:
          'Change son mot de passe (400 « Modification non effectuée » si l’ancien est faux)',
        body: changePasswordBody,
        response: { 200: okSchema },
      },
      preHandler: [...ctx.guard(), ctx.limitAttempts],
    },
    async (request) => {
      const { oldPassword, newPassword } = request.body;
      if (!(await ctx.auth.changePassword(request.actor!, oldPassword, newPassword))) {
        throw new ValidationError(WRONG_OLD, { fields: { oldPassword: WRONG_OLD } });
      }
      return { message: 'Mot de passe modifié avec succès' };
    },
  );
}
