import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ValidationError } from '@filiere/platform';
import type { IdentityContext } from '../context.js';
import {
  accountNumber,
  changePasswordBody,
  currentPassword,
  email,
  phone,
  text,
  userSchema,
} from '../schemas.js';
import { toUserDto } from '../repository.js';

const tags = ['profile'];
const WRONG_OLD = 'Modification non effectuée';
const security = [{ bearer: [] }];

/** The profile fields, and whether a change asks for the current password (field-rules.ts). */
const FIELDS = {
  firstname: { schema: text(), confirm: false },
  lastname: { schema: text(), confirm: false },
  email: { schema: email, confirm: true },
  phone: { schema: phone, confirm: true },
  momoAccountNumber: { schema: accountNumber, confirm: true },
  bankAccountNumber: { schema: accountNumber, confirm: true },
} as const;

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

  for (const [field, { schema, confirm }] of Object.entries(FIELDS) as [
    keyof typeof FIELDS,
    (typeof FIELDS)[keyof typeof FIELDS],
  ][]) {
    app.patch(
      `/users/me/${field}`,
      {
        schema: {
          tags,
          security,
          summary: confirm
            ? `Modifie le champ ${field} de son profil (avec son mot de passe actuel ; 422 s’il est faux ; l’ancienne adresse est prévenue par mail)`
            : `Modifie le champ ${field} de son profil`,
          body: z.object(confirm ? { [field]: schema, currentPassword } : { [field]: schema }),
          response: { 200: userSchema },
        },
        // A current password can be guessed here: the attempts are limited like sign-in's.
        preHandler: confirm ? [...ctx.guard(), ctx.limitAttempts] : ctx.guard(),
      },
      async (request) => {
        const body = request.body as Record<string, string | null | undefined>;
        return ctx.users.updateOwn(
          request.actor!,
          field,
          body[field] ?? null,
          body.currentPassword ?? undefined,
        );
      },
    );
  }

  app.post(
    '/users/me/password',
    {
      schema: {
        tags,
        security,
        summary:
          'Change son mot de passe (400 « Modification non effectuée » si l’ancien est faux) ; les jetons émis avant sont révoqués, la réponse porte le nouveau',
        body: changePasswordBody,
        response: { 200: z.object({ message: z.string(), access_token: z.string() }) },
      },
      preHandler: [...ctx.guard(), ctx.limitAttempts],
    },
    async (request) => {
      const { oldPassword, newPassword } = request.body;
      const token = await ctx.auth.changePassword(request.actor!, oldPassword, newPassword);
      if (!token) throw new ValidationError(WRONG_OLD, { fields: { oldPassword: WRONG_OLD } });
      return { message: 'Mot de passe modifié avec succès', access_token: token };
    },
  );
}
