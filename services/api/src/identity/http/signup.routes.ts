import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { IdentityContext } from '../context.js';
import { attemptLimit } from './rate-limit.js';
import {
  emailBody,
  emailParams,
  linkCheckAnswer,
  linkCheckBody,
  okSchema,
  signupBody,
  signupQuery,
  tokenPasswordBody,
  userSchema,
} from '../schemas.js';

const tags = ['identity'];

/** Registration, invitation links and password reset (public except typeUser=user). */
export function signupRoutes(scope: FastifyInstance, ctx: IdentityContext): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  // Mail-sending routes that also tell whether an address is known: per address and per target.
  const limitMail = attemptLimit(scope, 'mail');
  const limitLinkCheck = attemptLimit(scope, 'linkCheck');

  app.post(
    '/users/invitation/signup',
    {
      schema: {
        tags,
        summary:
          'Inscription (industrial, cluster-manager, sfd : compte inactif) ou création interne (user : authentifié)',
        querystring: signupQuery,
        body: signupBody,
        response: { 201: userSchema },
      },
      // Public registration only: typeUser=user is an authenticated administrator's creation.
      preHandler: async (request, reply) => {
        if (request.query.typeUser !== 'user') await limitMail(request, reply);
      },
    },
    async (request, reply) => {
      const { typeUser } = request.query;
      const user =
        typeUser === 'user'
          ? await ctx.users.createInternal(await ctx.requireActor(request), request.body)
          : await ctx.users.register(typeUser, request.body);
      return reply.code(201).send(user);
    },
  );

  app.post(
    '/users/invitation/resend',
    {
      schema: {
        tags,
        summary: 'Renvoie le mail d’invitation',
        body: emailBody,
        response: { 200: okSchema },
      },
      preHandler: limitMail,
    },
    async (request) => {
      await ctx.auth.resendInvitation(request.body.email);
      return { message: 'Le mail a été renvoyé avec succès.' };
    },
  );

  app.post(
    '/users/link/check',
    {
      schema: {
        tags,
        summary:
          'Dit si un lien d’invitation ou de réinitialisation est encore valable, sans le consommer (la page le vérifie à son ouverture)',
        body: linkCheckBody,
        response: { 200: linkCheckAnswer },
      },
      preHandler: limitLinkCheck,
    },
    async (request) => {
      const { token, email, type } = request.body;
      return { valid: await ctx.auth.isLinkValid(type, token, email) };
    },
  );

  app.post(
    '/users/validation/signup',
    {
      schema: {
        tags,
        summary:
          'Définit le mot de passe depuis le lien d’invitation (403 si le token est invalide) ; active dit si le compte peut déjà se connecter (créé par un administrateur) ou attend son activation (inscription)',
        body: tokenPasswordBody,
        response: { 200: okSchema.extend({ active: z.boolean() }) },
      },
      preHandler: ctx.limitAttempts,
    },
    async (request) => {
      const { token, email, password } = request.body;
      const { active } = await ctx.auth.setPasswordWithToken('INVITATION', token, email, password);
      return { message: 'Mot de passe défini avec succès', active };
    },
  );

  app.post(
    '/users/forgot-password/:email',
    {
      schema: {
        tags,
        summary: 'Envoie un lien de réinitialisation (toujours 200)',
        params: emailParams,
        response: { 200: okSchema },
      },
      preHandler: limitMail,
    },
    async (request) => {
      await ctx.auth.forgotPassword(request.params.email);
      return { message: 'Si ce compte existe, un mail a été envoyé.' };
    },
  );

  app.post(
    '/users/reset-password',
    {
      schema: {
        tags,
        summary:
          'Nouveau mot de passe depuis le lien de réinitialisation (403 si le token est invalide)',
        body: tokenPasswordBody,
        response: { 200: okSchema },
      },
      preHandler: ctx.limitAttempts,
    },
    async (request) => {
      const { token, email, password } = request.body;
      await ctx.auth.setPasswordWithToken('RESET', token, email, password);
      return { message: 'Mot de passe modifié avec succès' };
    },
  );
}
