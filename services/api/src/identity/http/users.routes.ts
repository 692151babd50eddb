import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditEntrySchema, readUserAudit } from '../audit.js';
import type { IdentityContext } from '../context.js';
import { ROUTE_ROLES } from '../permissions.js';
import {
  idParams,
  industrialSchema,
  listOf,
  listQuery,
  MSG,
  updateUserBody,
  userSchema,
  usersQuery,
} from '../schemas.js';

const tags = ['users'];
const security = [{ bearer: [] }];

/** User administration: lists, detail, edit, delete, (de)activation, counters. */
export function usersRoutes(scope: FastifyInstance, ctx: IdentityContext): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/users',
    {
      schema: {
        tags,
        security,
        summary:
          'Utilisateurs (tous pour les administrateurs, ceux du cluster pour son gestionnaire, les collaborateurs de son organisation pour un agrégateur ou un SFD ; 403 qui dit ce qui manque sans cluster ou sans organisation)',
        querystring: usersQuery,
        response: { 200: listOf(userSchema) },
      },
      preHandler: ctx.guard(...ROUTE_ROLES.listUsers),
    },
    async (request) => {
      const { roles, ...page } = request.query;
      return ctx.users.list(request.actor!, page, roles);
    },
  );

  app.get(
    '/users/count-inactives',
    {
      schema: {
        tags,
        security,
        summary: 'Nombre d’agrégateurs inactifs',
        response: { 200: z.object({ count: z.number() }) },
      },
      preHandler: ctx.guard(...ROUTE_ROLES.countInactives),
    },
    async () => ({ count: await ctx.users.countInactives() }),
  );

  app.get(
    '/users/industrials',
    {
      schema: {
        tags,
        security,
        summary: 'Recherche d’agrégateurs actifs',
        querystring: listQuery,
        response: { 200: listOf(industrialSchema) },
      },
      preHandler: ctx.guard(...ROUTE_ROLES.industrials),
    },
    async (request) => ctx.users.industrials(request.actor!, request.query),
  );

  app.get(
    '/users/cluster/:clusterId',
    {
      schema: {
        tags,
        security,
        summary: 'Utilisateurs d’un cluster',
        params: z.object({ clusterId: z.uuid(MSG.invalid) }),
        querystring: listQuery,
        response: { 200: listOf(userSchema) },
      },
      preHandler: ctx.guard(...ROUTE_ROLES.clusterUsers),
    },
    async (request) =>
      ctx.users.clusterUsers(request.actor!, request.params.clusterId, request.query),
  );

  app.get(
    '/users/activate-account/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Active ou désactive un compte (bascule)',
        params: idParams,
        response: { 200: userSchema },
      },
      preHandler: ctx.guard(...ROUTE_ROLES.manageUsers),
    },
    async (request) => ctx.users.toggleActive(request.actor!, request.params.id),
  );

  app.get(
    '/users/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Un utilisateur',
        params: idParams,
        response: { 200: userSchema },
      },
      preHandler: ctx.guard(),
    },
    async (request) => ctx.users.get(request.actor!, request.params.id),
  );

  app.patch(
    '/users/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Modifie un utilisateur (soi-même, ou un utilisateur de son périmètre), champ par champ selon les règles de field-rules.ts : e-mail, téléphone et comptes de paiement par leur seul titulaire (currentPassword), rôle inférieur au sien et jamais le sien',
        params: idParams,
        body: updateUserBody,
        response: { 200: userSchema },
      },
      preHandler: [
        // Every user PATCHes itself (its allowed fields); others only within its reach.
        ...ctx.guard(),
        // A current password can be guessed here: limited like sign-in's attempts.
        async function limitWhenConfirming(request, reply) {
          if ((request.body as { currentPassword?: unknown })?.currentPassword !== undefined) {
            await ctx.limitAttempts.call(this, request, reply);
          }
        },
      ],
    },
    async (request) => {
      const { currentPassword, ...changes } = request.body;
      return ctx.users.update(request.actor!, request.params.id, changes, currentPassword);
    },
  );

  app.get(
    '/users/:id/audit',
    {
      schema: {
        tags,
        security,
        summary:
          'Journal d’audit d’un compte (qui a changé quoi et quand : e-mail, comptes de paiement, rôle, cluster, activation, mot de passe, suppression), du plus récent au plus ancien',
        params: idParams,
        querystring: listQuery,
        response: { 200: listOf(auditEntrySchema) },
      },
      preHandler: ctx.guard(...ROUTE_ROLES.audit),
    },
    async (request) =>
      readUserAudit(app.eventStore, ctx.repo, request.actor!, request.params.id, request.query),
  );

  app.delete(
    '/users/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Supprime un utilisateur',
        params: idParams,
        response: { 204: z.undefined().describe('deleted') },
      },
      preHandler: ctx.guard(...ROUTE_ROLES.manageUsers),
    },
    async (request, reply) => {
      await ctx.users.remove(request.actor!, request.params.id);
      return reply.code(204).send();
    },
  );
}
