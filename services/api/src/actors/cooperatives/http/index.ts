import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pgPushPublisher, redisPushPublisher } from '@filiere/projections';
import { beninDay, ForbiddenError } from '@filiere/platform';
import { membersOf } from '../../../identity/index.js';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../kernel/app-deps.js';
import type { ProductTables } from '../../../kernel/tables.js';
import { ROLE } from '../../../kernel/roles.js';
import { ACTOR_STAFF, ACTOR_WRITERS, REACH_MESSAGES } from '../domain/reach.js';
import { writeCooperativesXlsx, XLSX } from '../download.js';
import { organizationGrowerSchema } from '../growers-of-organization.js';
import { cooperativesDb } from '../queries.js';
import {
  cooperativeSchema,
  createCooperativeBody,
  idParams,
  listOf,
  listQuery,
  MSG,
  updateCooperativeBody,
} from '../schemas.js';
import { CooperativesService, scopeOrThrow, viewerOf } from '../service.js';

const tags = ['cooperatives'];
const security = [{ bearer: [] }];
const clusterParams = z.object({ clusterId: z.uuid(MSG.invalid) });

const organizationUserSchema = z.object({
  id: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  isActive: z.boolean(),
  roleId: z.number(),
  role: z.object({ id: z.number(), code: z.string(), name: z.string() }),
});

/**
 * Cooperatives (organisations paysannes) under /api: spec §7 "Cooperatives". The guard runs
 * at onRequest too, so a caller without the role gets 403 before its body is validated.
 */
export async function registerCooperatives(app: FastifyInstance & { deps: AppDeps }) {
  // Typed once: the app's `deps` is declared twice (FastifyInstance and HttpRegistration).
  const db: Kysely<ProductTables> = app.deps.db;
  const { redis } = app.deps;
  const service = new CooperativesService(
    db,
    membersOf(app),
    redis ? redisPushPublisher(redis) : pgPushPublisher(db),
    (error) => app.log.warn({ err: error }, 'CooperativesService push not published'),
  );
  const staff = app.requireRoles(...ACTOR_STAFF);
  const guarded = { onRequest: staff, preHandler: staff };
  const writers = app.requireRoles(...ACTOR_WRITERS);
  const writeGuarded = { onRequest: writers, preHandler: writers };
  const superAdmin = app.requireRoles(ROLE.SUPER_ADMIN);
  const superAdminGuarded = { onRequest: superAdmin, preHandler: superAdmin };
  const organizationReaders = app.requireRoles(...ACTOR_STAFF, ROLE.FARMER_ORGANIZATION);
  const orgGuarded = { onRequest: organizationReaders, preHandler: organizationReaders };

  await app.register(
    async (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();

      r.post(
        '/farmer-organization/cluster/:clusterId',
        {
          schema: {
            tags,
            security,
            summary:
              'Enregistre une coopérative dans un cluster : son organisation, son représentant (ROLE_FARMER_ORGANIZATION) et ses comptes de paiement ; 409 si le téléphone ou l’e-mail est déjà utilisé',
            params: clusterParams,
            body: createCooperativeBody,
            response: { 201: cooperativeSchema },
          },
          ...writeGuarded,
        },
        async (request, reply) =>
          reply
            .code(201)
            .send(await service.create(request.actor!, request.params.clusterId, request.body)),
      );

      r.get(
        '/farmer-organization',
        {
          schema: {
            tags,
            security,
            summary:
              'Coopératives (toutes pour les administrateurs, celles du cluster pour les autres) ; status=inactive : les désactivées (super administrateur)',
            querystring: listQuery,
            response: { 200: listOf(cooperativeSchema) },
          },
          ...guarded,
        },
        async (request) => service.list(request.actor!, request.query),
      );

      r.get(
        '/farmer-organization/cluster/:clusterId',
        {
          schema: {
            tags,
            security,
            summary: 'Coopératives d’un cluster (limit=-1 : toutes)',
            params: clusterParams,
            querystring: listQuery,
            response: { 200: listOf(cooperativeSchema) },
          },
          ...guarded,
        },
        async (request) => service.list(request.actor!, request.query, request.params.clusterId),
      );

      r.get(
        '/farmer-organization/download/:userId',
        {
          schema: {
            tags,
            security,
            summary: 'Télécharger les coopératives de son périmètre (.xlsx, en-têtes en français)',
            params: z.object({ userId: z.uuid(MSG.invalid) }),
            response: { 200: z.unknown().describe('the .xlsx file') },
          },
          ...guarded,
        },
        async (request, reply) => {
          const actor = request.actor!;
          if (request.params.userId !== actor.id)
            throw new ForbiddenError(REACH_MESSAGES.forbidden);
          const scopeOf = scopeOrThrow(viewerOf(actor));
          const body = new PassThrough();
          writeCooperativesXlsx(cooperativesDb(db), scopeOf, { stream: body }).catch((error) => {
            request.log.error({ err: error }, 'cooperatives xlsx export failed');
            body.destroy(error as Error);
          });
          const day = beninDay(new Date());
          return reply
            .type(XLSX)
            .header('content-disposition', `attachment; filename="cooperatives-${day}.xlsx"`)
            .send(body);
        },
      );

      r.get(
        '/farmer-organization/:id',
        {
          schema: {
            tags,
            security,
            summary: 'Une coopérative',
            params: idParams,
            response: { 200: cooperativeSchema },
          },
          ...guarded,
        },
        async (request) => service.get(request.actor!, request.params.id),
      );

      r.patch(
        '/farmer-organization/:id',
        {
          schema: {
            tags,
            security,
            summary:
              'Modifie une coopérative (dénomination, représentant, RCCM, IFU) ; les comptes de paiement ne changent que par une demande approuvée',
            params: idParams,
            body: updateCooperativeBody,
            response: { 200: cooperativeSchema },
          },
          ...writeGuarded,
        },
        async (request) => service.update(request.actor!, request.params.id, request.body),
      );

      r.delete(
        '/farmer-organization/:id',
        {
          schema: {
            tags,
            security,
            summary: 'Désactive une coopérative et le compte de son représentant (réactivable)',
            params: idParams,
            response: { 200: z.object({ message: z.string() }) },
          },
          ...writeGuarded,
        },
        async (request) => service.deactivate(request.actor!, request.params.id),
      );

      r.patch(
        '/farmer-organization/:id/reactivate',
        {
          schema: {
            tags,
            security,
            summary: 'Réactive une coopérative désactivée (super administrateur)',
            params: idParams,
            response: { 200: cooperativeSchema },
          },
          ...superAdminGuarded,
        },
        async (request) => service.reactivate(request.actor!, request.params.id),
      );

      r.get(
        '/organization/:id/cooperative',
        {
          schema: {
            tags,
            security,
            summary: 'La coopérative d’une organisation (son représentant la lit aussi)',
            params: idParams,
            response: { 200: cooperativeSchema },
          },
          ...orgGuarded,
        },
        async (request) => service.organizationCooperative(request.actor!, request.params.id),
      );

      r.get(
        '/organization/:id/growers',
        {
          schema: {
            tags,
            security,
            summary: 'Les producteurs actifs d’une coopérative (son représentant les lit aussi)',
            params: idParams,
            querystring: listQuery,
            response: { 200: listOf(organizationGrowerSchema) },
          },
          ...orgGuarded,
        },
        async (request) =>
          service.organizationGrowers(request.actor!, request.params.id, request.query),
      );

      r.get(
        '/organization/:id/users',
        {
          schema: {
            tags,
            security,
            summary: 'Les utilisateurs d’une organisation',
            params: idParams,
            querystring: listQuery,
            response: { 200: listOf(organizationUserSchema) },
          },
          ...orgGuarded,
        },
        async (request) =>
          service.organizationUsers(request.actor!, request.params.id, request.query),
      );
    },
    { prefix: '/api' },
  );
}
