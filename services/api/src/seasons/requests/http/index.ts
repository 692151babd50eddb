import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SignedInUser } from '../../../kernel/actor.js';
import type { HttpRegistration } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import { beninToday } from '../../domain/index.js';
import { idempotencyHeaders } from '../../http/schemas.js';
import {
  RequestCommands,
  type BulkItem,
  type RequestsDbTables,
} from '../commands/request-commands.js';
import type { RequestActor } from '../domain/index.js';
import { RequestQueries } from '../queries.js';
import { inputsDb } from '../../inputs/index.js';
import { narrowDb } from '@filiere/platform';
import {
  acceptManyBody,
  bulkAnswer,
  fileBody,
  filingGrowersQuery,
  filingOptionsAnswer,
  pendingListQuery,
  rejectManyBody,
  requestAnswer,
  requestListAnswer,
  requestListQuery,
  typeUserParams,
} from './schemas.js';

const tags = ['season-requests'];
const security = [{ bearer: [] }];
const { SUPER_ADMIN, INDUSTRIAL, FARMER_ORGANIZATION, SFD, GROWER } = ROLE;

/** Who may call what (the generated authorization matrix reads the guards). */
export const REQUEST_ROUTE_ROLES = {
  /** Filing: the grower itself, or its cooperative's user. */
  file: [GROWER, FARMER_ORGANIZATION],
  /** Lists: the handler (industrial, SFD), the grower, its cooperative, the super admin. */
  list: [SUPER_ADMIN, INDUSTRIAL, FARMER_ORGANIZATION, SFD, GROWER],
  /** The SFD's SOCIAL list. */
  social: [SUPER_ADMIN, SFD],
  /** Accept and reject: the industrial (INPUT, PINEAPLE) or the SFD (SOCIAL) addressed. */
  decide: [INDUSTRIAL, SFD],
} as const;

export const REQUEST_SUCCESS = {
  accepted: 'Demande (s) acceptée(s) avec succès',
  rejected: 'Demande (s) rejetée(s) avec succès',
} as const;

const actorOf = (user: SignedInUser): RequestActor => ({ userId: user.id, role: user.role_code });
const key = (headers: { 'idempotency-key'?: string | undefined }) => headers['idempotency-key'];

/** The bulk answer: the spec's success text when any id passed, else the first refusal. */
function bulkOf(results: BulkItem[], success: string) {
  const done = results.filter((r) => r.ok).length;
  const firstFailure = results.find((r) => !r.ok);
  return {
    message: done > 0 || !firstFailure ? success : firstFailure.message,
    done,
    failed: results.length - done,
    results,
  };
}

export function requestRoutes(
  scope: FastifyInstance,
  commands: RequestCommands,
  queries: RequestQueries,
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  /**
   * The role guard runs at onRequest too, so a caller without the role gets 401/403 before
   * its body is validated (docs/security.md, the actors' finding); the preHandler declares the
   * access the authorization matrix reads.
   */
  const guard = (roles: readonly (typeof ROLE)[keyof typeof ROLE][]) => {
    const handlers = [scope.requireRoles(...roles)];
    return { onRequest: handlers, preHandler: handlers };
  };

  app.post(
    '/season-requests',
    {
      schema: {
        tags,
        security,
        summary:
          'Faire une demande (producteur pour lui-même, coopérative pour ses producteurs) : INPUT (intrant de la saison, kg), PINEAPLE (montant, kg d’ananas à livrer), SOCIAL (montant, SFD) ; 201',
        headers: idempotencyHeaders,
        body: fileBody,
        response: { 201: requestAnswer },
      },
      ...guard(REQUEST_ROUTE_ROLES.file),
    },
    async (request, reply) => {
      const { quantity, ...body } = request.body;
      const answer = await commands.file(
        actorOf(request.actor!),
        { ...body, quantityKg: quantity },
        key(request.headers),
      );
      return reply.status(201).send(answer);
    },
  );

  app.get(
    '/season-requests/filing-options',
    {
      schema: {
        tags,
        security,
        summary:
          'Le formulaire de demande : les producteurs pour qui faire la demande, les saisons actives et leurs intrants, les SFD',
        querystring: filingGrowersQuery,
        response: { 200: filingOptionsAnswer },
      },
      ...guard(REQUEST_ROUTE_ROLES.file),
    },
    async (request) => ({
      growers: await queries.filingGrowers(actorOf(request.actor!), request.query),
      seasons: await queries.filingSeasons(beninToday(new Date())),
      sfds: await queries.sfds(),
    }),
  );

  app.get(
    '/user-cluster-grower/get-industrial-requests/:type/:userId',
    {
      schema: {
        tags,
        security,
        summary:
          'Les demandes d’un type (INPUT, PINEAPLE, SOCIAL) : d’un agrégateur, d’un SFD, d’un producteur ou des producteurs d’une coopérative (le super admin : toutes avec son propre id) ; {count, values}',
        params: typeUserParams,
        querystring: requestListQuery,
        response: { 200: requestListAnswer },
      },
      ...guard(REQUEST_ROUTE_ROLES.list),
    },
    async (request) => {
      const scope = await queries.scopeOf(actorOf(request.actor!), request.params.userId);
      return queries.list(scope, request.params.type, request.query);
    },
  );

  app.get(
    '/user-cluster-grower/get-pending-requests/:type/:userId',
    {
      schema: {
        tags,
        security,
        summary: 'Les demandes en attente (CREATED) d’un type, même portée ; {count, values}',
        params: typeUserParams,
        querystring: pendingListQuery,
        response: { 200: requestListAnswer },
      },
      ...guard(REQUEST_ROUTE_ROLES.list),
    },
    async (request) => {
      const scope = await queries.scopeOf(actorOf(request.actor!), request.params.userId);
      return queries.list(scope, request.params.type, { ...request.query, status: 'CREATED' });
    },
  );

  app.get(
    '/season-requests/social',
    {
      schema: {
        tags,
        security,
        summary:
          'Demandes de financements social : celles adressées au SFD (le super admin : toutes) ; {count, values}',
        querystring: requestListQuery,
        response: { 200: requestListAnswer },
      },
      ...guard(REQUEST_ROUTE_ROLES.social),
    },
    async (request) => {
      const actor = actorOf(request.actor!);
      const scope = await queries.scopeOf(actor, actor.userId);
      return queries.list(scope, 'SOCIAL', request.query);
    },
  );

  app.post(
    '/user-cluster-grower/accept-requests',
    {
      schema: {
        tags,
        security,
        summary:
          'Accepter des demandes (irréversible ; chacune sa commande, réponse par id) : INPUT → code de livraison, PINEAPLE → avance payée au producteur, SOCIAL → financement payé par le SFD',
        headers: idempotencyHeaders,
        body: acceptManyBody,
        response: { 200: bulkAnswer },
      },
      ...guard(REQUEST_ROUTE_ROLES.decide),
    },
    async (request) => {
      const results = await commands.acceptMany(
        actorOf(request.actor!),
        request.body.ids,
        key(request.headers),
      );
      return bulkOf(results, REQUEST_SUCCESS.accepted);
    },
  );

  app.post(
    '/user-cluster-grower/reject-requests',
    {
      schema: {
        tags,
        security,
        summary: 'Rejeter des demandes avec un motif (chacune sa commande, réponse par id)',
        headers: idempotencyHeaders,
        body: rejectManyBody,
        response: { 200: bulkAnswer },
      },
      ...guard(REQUEST_ROUTE_ROLES.decide),
    },
    async (request) => {
      const results = await commands.rejectMany(
        actorOf(request.actor!),
        request.body,
        key(request.headers),
      );
      return bulkOf(results, REQUEST_SUCCESS.rejected);
    },
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The requests' services (tests drive them directly). */
    seasonRequests: { commands: RequestCommands; queries: RequestQueries };
  }
}

/** The requests' routes under /api. */
export const registerSeasonRequests: HttpRegistration = async (app) => {
  const { db: productDb, config } = app.deps;
  const db = narrowDb<RequestsDbTables>()(productDb);
  const commands = new RequestCommands({
    db,
    inputs: inputsDb(productDb),
    pipeline: app.commands,
    limits: { maxCommandAmount: config.MAX_COMMAND_AMOUNT, maxBalance: config.MAX_BALANCE },
    ...(app.deps.clock ? { now: app.deps.clock } : {}),
  });
  const queries = new RequestQueries(db);
  app.decorate('seasonRequests', { commands, queries });
  await app.register(async (scope) => requestRoutes(scope, commands, queries), { prefix: '/api' });
};
