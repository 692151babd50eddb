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
import { ACTOR_STAFF, ACTOR_WRITERS, REACH_MESSAGES } from '../../cooperatives/domain/reach.js';
import { XLSX } from '../../cooperatives/download.js';
import { scopeOrThrow, viewerOf } from '../../cooperatives/service.js';
import { writeCarriersXlsx } from '../download.js';
import { carriersDb } from '../queries.js';
import {
  carrierSchema,
  createCarrierBody,
  idParams,
  listOf,
  listQuery,
  updateCarrierBody,
} from '../schemas.js';
import { CarriersService } from '../service.js';

const tags = ['carriers'];
const security = [{ bearer: [] }];

/**
 * Carriers (transporteurs) under /api: spec §7 "Carriers". Guards run at onRequest too, so a
 * caller without the role gets 403 before its body is validated.
 */
export async function registerCarriers(app: FastifyInstance & { deps: AppDeps }) {
  // Typed once: the app's `deps` is declared twice (FastifyInstance and HttpRegistration).
  const db: Kysely<ProductTables> = app.deps.db;
  const { redis } = app.deps;
  const service = new CarriersService(
    db,
    membersOf(app),
    redis ? redisPushPublisher(redis) : pgPushPublisher(db),
    (error) => app.log.warn({ err: error }, 'CarriersService push not published'),
  );
  const staff = app.requireRoles(...ACTOR_STAFF);
  const guarded = { onRequest: staff, preHandler: staff };
  const writers = app.requireRoles(...ACTOR_WRITERS);
  const writeGuarded = { onRequest: writers, preHandler: writers };
  const orgReaders = app.requireRoles(...ACTOR_STAFF, ROLE.FARMER_ORGANIZATION);
  const orgGuarded = { onRequest: orgReaders, preHandler: orgReaders };

  await app.register(
    async (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();

      r.get(
        '/carrier',
        {
          schema: {
            tags,
            security,
            summary:
              'Transporteurs avec leurs véhicules (tous pour les administrateurs, ceux du cluster pour les autres) ; status=inactive : les désactivés',
            querystring: listQuery,
            response: { 200: listOf(carrierSchema) },
          },
          ...guarded,
        },
        async (request) => service.list(request.actor!, request.query),
      );

      r.post(
        '/carrier',
        {
          schema: {
            tags,
            security,
            summary:
              'Enregistre un transporteur (utilisateur ROLE_CARRIER, identifiant = téléphone), ses véhicules et ses comptes de paiement ; 409 si le téléphone ou une immatriculation est déjà utilisé',
            body: createCarrierBody,
            response: { 201: carrierSchema },
          },
          ...writeGuarded,
        },
        async (request, reply) =>
          reply.code(201).send(await service.create(request.actor!, request.body)),
      );

      r.get(
        '/carrier/download/:userId',
        {
          schema: {
            tags,
            security,
            summary: 'Télécharger les transporteurs de son périmètre (.xlsx, en-têtes en français)',
            params: z.object({ userId: z.uuid('Entré non valide') }),
            response: { 200: z.unknown().describe('the .xlsx file') },
          },
          ...guarded,
        },
        async (request, reply) => {
          const actor = request.actor!;
          if (request.params.userId !== actor.id) {
            throw new ForbiddenError(REACH_MESSAGES.forbidden);
          }
          const scopeOf = scopeOrThrow(viewerOf(actor));
          const body = new PassThrough();
          writeCarriersXlsx(carriersDb(db), scopeOf, { stream: body }).catch((error) => {
            request.log.error({ err: error }, 'carriers xlsx export failed');
            body.destroy(error as Error);
          });
          const day = beninDay(new Date());
          return reply
            .type(XLSX)
            .header('content-disposition', `attachment; filename="transporteurs-${day}.xlsx"`)
            .send(body);
        },
      );

      r.get(
        '/carrier/:id',
        {
          schema: {
            tags,
            security,
            summary: 'Un transporteur et ses véhicules',
            params: idParams,
            response: { 200: carrierSchema },
          },
          ...guarded,
        },
        async (request) => service.get(request.actor!, request.params.id),
      );

      r.patch(
        '/carrier/:id',
        {
          schema: {
            tags,
            security,
            summary:
              'Modifie un transporteur (identité, adresse, véhicules) ; les comptes de paiement ne changent que par une demande approuvée',
            params: idParams,
            body: updateCarrierBody,
            response: { 200: carrierSchema },
          },
          ...writeGuarded,
        },
        async (request) => service.update(request.actor!, request.params.id, request.body),
      );

      r.delete(
        '/carrier/:id',
        {
          schema: {
            tags,
            security,
            summary: 'Désactive un transporteur et son compte (réactivable)',
            params: idParams,
            response: { 200: z.object({ message: z.string() }) },
          },
          ...writeGuarded,
        },
        async (request) => service.deactivate(request.actor!, request.params.id),
      );

      r.patch(
        '/carrier/:id/reactivate',
        {
          schema: {
            tags,
            security,
            summary: 'Réactive un transporteur désactivé',
            params: idParams,
            response: { 200: carrierSchema },
          },
          ...writeGuarded,
        },
        async (request) => service.reactivate(request.actor!, request.params.id),
      );

      r.get(
        '/organization/:id/carriers',
        {
          schema: {
            tags,
            security,
            summary: 'Les transporteurs rattachés à une organisation',
            params: idParams,
            querystring: listQuery,
            response: { 200: listOf(carrierSchema) },
          },
          ...orgGuarded,
        },
        async (request) => service.ofOrganization(request.actor!, request.params.id, request.query),
      );
    },
    { prefix: '/api' },
  );
}
