import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { beninDay, ForbiddenError } from '@filiere/platform';
import { pgPushPublisher, redisPushPublisher } from '@filiere/projections';
import { membersOf } from '../../../identity/index.js';
import type { HttpRegistration } from '../../../kernel/module.js';
import type { RoleCode } from '../../../kernel/roles.js';
import { GROWER_ROUTE_ROLES, REACH_MESSAGES } from '../domain/reach.js';
import { writeGrowersXlsx } from '../export.js';
import { actorOf, GrowersService } from '../service.js';
import {
  createGrowerBody,
  createPlotBody,
  downloadParams,
  downloadQuery,
  growerAuditEntry,
  growerDetail,
  growerListItem,
  growerListQuery,
  growerSelectorQuery,
  idParams,
  listOf,
  messageSchema,
  noCooperativeQuery,
  plotSchema,
  updateGrowerBody,
  updatePlotBody,
  uuid,
} from '../schemas.js';

const tags = ['growers'];
const security = [{ bearer: [] }];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The growers and plots routes (spec §7 "Growers and plots"), thin: zod schemas
 * (../schemas.ts), the role guard of each route (domain/reach.ts), then the service, which
 * checks reach on the grower's own row.
 */
export function growersRoutes(scope: FastifyInstance, service: GrowersService): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  /**
   * The role guard runs at onRequest too, so that a caller without the role gets 403 before
   * its body is validated (as the cooperatives' routes do); the preHandler declares the
   * access the authorization matrix reads (the user is loaded once).
   */
  const guard = (roles: readonly RoleCode[]) => {
    const handlers = [scope.requireRoles(...roles)];
    return { onRequest: handlers, preHandler: handlers };
  };
  const R = GROWER_ROUTE_ROLES;

  app.get(
    '/grower',
    {
      schema: {
        tags,
        security,
        summary:
          'Producteurs (les plus récents d’abord) : tous pour le super administrateur et l’administrateur, ceux du cluster pour les autres, les siens pour une coopérative (sans colonne coopérative) ; recherche par nom, prénoms, téléphone ou référence ; status=inactive : les bannis (super administrateur)',
        querystring: growerListQuery,
        response: { 200: listOf(growerListItem) },
      },
      ...guard(R.read),
    },
    async (request) => service.listGrowers(actorOf(request.actor!), request.query),
  );

  app.get(
    '/grower/no-cooperative',
    {
      schema: {
        tags,
        security,
        summary:
          'Producteurs sans coopérative d’un cluster (le sien ; clusterId pour les administrateurs) : la liste de « Configurer mon cluster » (limit=-1 : tous)',
        querystring: noCooperativeQuery,
        response: { 200: listOf(growerListItem) },
      },
      ...guard(R.noCooperative),
    },
    async (request) => service.withoutCooperative(actorOf(request.actor!), request.query),
  );

  app.get(
    '/grower/cluster/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Producteurs d’un cluster (limit=-1 : tous) ; 403 hors de son cluster',
        params: idParams,
        querystring: growerSelectorQuery,
        response: { 200: listOf(growerListItem) },
      },
      ...guard(R.cluster),
    },
    async (request) =>
      service.clusterGrowers(actorOf(request.actor!), request.params.id, request.query),
  );

  app.get(
    '/farmer-organization/:id/growers',
    {
      schema: {
        tags,
        security,
        summary:
          'Producteurs d’une coopérative (id = l’organisation) : la coopérative elle-même, le personnel de son cluster, les administrateurs (limit=-1 : tous)',
        params: idParams,
        querystring: growerSelectorQuery,
        response: { 200: listOf(growerListItem) },
      },
      ...guard(R.read),
    },
    async (request) =>
      service.cooperativeGrowers(actorOf(request.actor!), request.params.id, request.query),
  );

  app.get(
    '/grower/download/:userId',
    {
      schema: {
        tags,
        security,
        summary:
          'Télécharge la liste des producteurs de son périmètre (.xlsx, en-têtes en français) ; userId = l’identifiant de l’utilisateur connecté',
        params: downloadParams,
        querystring: downloadQuery,
        response: { 200: z.unknown().describe('the .xlsx file') },
      },
      ...guard(R.read),
    },
    async (request, reply) => {
      const actor = actorOf(request.actor!);
      if (request.params.userId !== actor.id)
        throw new ForbiddenError(REACH_MESSAGES.notYourDownload);
      const filter = service.downloadFilter(actor, request.query);
      const body = new PassThrough();
      writeGrowersXlsx(app.deps.db, filter, { stream: body }).catch((error) => {
        request.log.error({ err: error }, 'growers xlsx export failed');
        body.destroy(error as Error);
      });
      const name = `producteurs-${beninDay(new Date())}.xlsx`;
      return reply
        .type(XLSX)
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(body);
    },
  );

  // GET grower/contracts/{id} is the contracts context's (contracts/http), same roles and reach.

  app.get(
    '/grower/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Un producteur : profil, adresse, coopérative, parcelles, compte de reversement (accountInfo, momoInfo : MOOV ou MTN d’après le numéro)',
        params: idParams,
        response: { 200: growerDetail },
      },
      ...guard(R.read),
    },
    async (request) => service.detail(actorOf(request.actor!), request.params.id),
  );

  app.get(
    '/grower/:id/audit',
    {
      schema: {
        tags,
        security,
        summary:
          'Journal d’un producteur, du plus récent au plus ancien : enregistrement, modifications (adresse, coopérative, contact), parcelles ajoutées ou modifiées, bannissement, réintégration — qui et quand',
        params: idParams,
        response: { 200: listOf(growerAuditEntry) },
      },
      ...guard(R.manage),
    },
    async (request) =>
      service.audit(actorOf(request.actor!), request.params.id, (streamId) =>
        app.eventStore.readStream(streamId),
      ),
  );

  app.post(
    '/grower/cluster/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Enregistre un producteur dans un cluster : son compte utilisateur (ROLE_GROWER, avec portefeuille), ses parcelles et son compte de reversement ; 409 si le téléphone est déjà utilisé',
        params: idParams,
        body: createGrowerBody,
        response: { 201: growerDetail },
      },
      ...guard(R.manage),
    },
    async (request, reply) => {
      const grower = await service.create(actorOf(request.actor!), request.params.id, request.body);
      return reply.code(201).send(grower);
    },
  );

  app.patch(
    '/grower/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Modifie un producteur (identité, adresse, contact, coopérative) ; le compte de reversement se change par une demande approuvée (403 PAYOUT_CHANGE_NEEDS_REQUEST)',
        params: idParams,
        body: updateGrowerBody,
        response: { 200: growerDetail },
      },
      ...guard(R.manage),
    },
    async (request) => service.update(actorOf(request.actor!), request.params.id, request.body),
  );

  app.delete(
    '/grower/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Bannit un producteur (désactivation : il pourra être réintégré)',
        params: idParams,
        response: { 200: messageSchema },
      },
      ...guard(R.ban),
    },
    async (request) => service.setActive(actorOf(request.actor!), request.params.id, false),
  );

  app.get(
    '/users/:id/bannish-grower/:growerId',
    {
      schema: {
        tags,
        security,
        summary:
          'Bannit un producteur (appel du client d’origine : identifiant de son utilisateur puis du producteur)',
        params: z.object({ id: uuid, growerId: uuid }),
        response: { 200: messageSchema },
      },
      ...guard(R.ban),
    },
    async (request) =>
      service.setActive(actorOf(request.actor!), request.params.growerId, false, request.params.id),
  );

  app.post(
    '/grower/:id/reactivate',
    {
      schema: {
        tags,
        security,
        summary: 'Réintègre un producteur banni',
        params: idParams,
        response: { 200: messageSchema },
      },
      ...guard(R.ban),
    },
    async (request) => service.setActive(actorOf(request.actor!), request.params.id, true),
  );

  app.post(
    '/product',
    {
      schema: {
        tags,
        security,
        summary: 'Ajoute une parcelle à un producteur',
        body: createPlotBody,
        response: { 201: plotSchema },
      },
      ...guard(R.manage),
    },
    async (request, reply) =>
      reply.code(201).send(await service.addPlot(actorOf(request.actor!), request.body)),
  );

  app.patch(
    '/product/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Modifie une parcelle',
        params: idParams,
        body: updatePlotBody,
        response: { 200: plotSchema },
      },
      ...guard(R.manage),
    },
    async (request) => service.updatePlot(actorOf(request.actor!), request.params.id, request.body),
  );
}

/** Registers the growers area's routes under /api. */
export const registerGrowers: HttpRegistration = async (app) => {
  const { db, redis } = app.deps;
  const service = new GrowersService({
    db,
    commands: app.commands,
    members: membersOf(app),
    publish: redis ? redisPushPublisher(redis) : pgPushPublisher(db),
    log: (error, what) => app.log.warn({ err: error }, what),
  });
  await app.register(async (scope) => growersRoutes(scope, service), { prefix: '/api' });
};
