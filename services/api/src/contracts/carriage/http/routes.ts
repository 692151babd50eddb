import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { narrowDb, storableString } from '@filiere/platform';
import { ACTOR_STAFF, requireReadableCarrier } from '../../../actors/index.js';
import type { HttpRegistration } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import {
  CarriageContractCommands,
  type CarriageFactsTables,
} from '../commands/carriage-commands.js';
import { CarriageQueries, type CarriageQueryTables } from '../queries.js';

const tags = ['contracts'];
const security = [{ bearer: [] }];
const REQUIRED = 'Ce champ est obligatoire';
const INVALID = 'Entré non valide';

/** Who may call what (the authorization matrix reads the guards). */
export const CARRIAGE_ROUTE_ROLES = {
  /** Creating, cancelling, paying: the aggregator (its wallet holds and pays the amount). */
  write: [ROLE.INDUSTRIAL],
  /** Reading: the aggregator its own, the carrier its own, admins all. */
  read: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.INDUSTRIAL, ROLE.CARRIER],
} as const;

const createBody = z.object({
  carrierId: z.guid({ message: REQUIRED }),
  vehicleId: z.guid({ message: REQUIRED }),
  transportDate: z.iso.date({ message: REQUIRED }),
  amount: z
    .number({ message: INVALID })
    .int({ message: 'Le montant doit être un nombre entier de F CFA' })
    .positive({ message: 'Le montant doit être supérieur à 0' })
    .max(Number.MAX_SAFE_INTEGER, { message: INVALID }),
  description: storableString().trim().max(1000, { message: '1000 caractères au plus' }).optional(),
});
const answer = z.object({ contractId: z.string(), reference: z.string(), status: z.string() });
const row = z.object({
  id: z.string(),
  reference: z.string(),
  status: z.enum(['CREATED', 'PAID', 'CANCELED']),
  transportDate: z.string(),
  amount: z.number().int(),
  description: z.string().nullable(),
  createdAt: z.string(),
  aggregator: z.object({ id: z.string(), firstname: z.string(), lastname: z.string() }),
  carrier: z.object({
    id: z.string(),
    userId: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    phone: z.string().nullable(),
  }),
  vehicle: z.object({ id: z.string(), carType: z.string(), registration: z.string() }),
});
const listQuery = z.object({
  page: z.coerce.number({ message: INVALID }).int().min(1).max(100_000).default(1),
  limit: z.coerce.number({ message: INVALID }).int().min(1).max(100).default(10),
  q: storableString().trim().max(200).optional(),
  status: z.enum(['CREATED', 'PAID', 'CANCELED'], { message: INVALID }).optional(),
});
const idParams = z.object({ id: z.guid({ message: INVALID }) });
const idempotencyHeaders = z.looseObject({
  'idempotency-key': storableString().min(1).max(200).optional(),
});
const list = z.object({ data: z.array(row), count: z.number().int() });

export function carriageRoutes(
  scope: FastifyInstance,
  commands: CarriageContractCommands,
  queries: CarriageQueries,
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  /** The role guard at onRequest too: 401/403 before the body is validated. */
  const guard = (roles: readonly (typeof ROLE)[keyof typeof ROLE][]) => {
    const handlers = [scope.requireRoles(...roles)];
    return { onRequest: handlers, preHandler: handlers };
  };

  app.post(
    '/contracts/carriage-contract',
    {
      schema: {
        tags,
        security,
        summary:
          'Créer un contrat de transport (agrégateur) : transporteur, véhicule, date, montant ; réserve le montant sur son wallet ; 422 « Il manque <montant> FCFA » si le solde disponible est insuffisant',
        headers: idempotencyHeaders,
        body: createBody,
        response: { 201: answer },
      },
      ...guard(CARRIAGE_ROUTE_ROLES.write),
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await commands.create(request.actor!, request.body, request.headers['idempotency-key']),
        ),
  );

  app.get(
    '/contracts/carriage-contract',
    {
      schema: {
        tags,
        security,
        summary:
          'Contrats de transport : l’agrégateur les siens, le transporteur les siens, super admin et admin tous ; recherche, statut, pagination',
        querystring: listQuery,
        response: { 200: list },
      },
      ...guard(CARRIAGE_ROUTE_ROLES.read),
    },
    async (request) => queries.list(request.actor!, request.query),
  );

  app.get(
    '/contracts/carriage-contract/user/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Contrats de transport d’un utilisateur (agrégateur ou transporteur) : lui-même ou un admin',
        params: idParams,
        querystring: listQuery,
        response: { 200: list },
      },
      ...guard(CARRIAGE_ROUTE_ROLES.read),
    },
    async (request) => queries.ofUser(request.actor!, request.params.id, request.query),
  );

  app.get(
    '/carrier/contracts/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Contrats de transport d’un transporteur (l’onglet de sa fiche) : même périmètre que la fiche',
        params: idParams,
        querystring: listQuery,
        response: { 200: list },
      },
      ...guard(ACTOR_STAFF),
    },
    async (request) => {
      await requireReadableCarrier(scope.deps.db, request.actor!, request.params.id);
      return queries.ofCarrier(request.params.id, request.query);
    },
  );

  app.get(
    '/contracts/carriage-contract/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Un contrat de transport (son agrégateur, son transporteur, un admin)',
        params: idParams,
        response: { 200: row },
      },
      ...guard(CARRIAGE_ROUTE_ROLES.read),
    },
    async (request) => queries.one(request.actor!, request.params.id),
  );

  app.delete(
    '/contracts/carriage-contract/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Annuler un contrat de transport (son agrégateur) : libère sa réservation ; un contrat payé ne peut plus être annulé',
        params: idParams,
        response: { 200: answer },
      },
      ...guard(CARRIAGE_ROUTE_ROLES.write),
    },
    async (request) => commands.cancel(request.actor!, request.params.id),
  );

  app.post(
    '/contracts/carriage-contract/:id/pay',
    {
      schema: {
        tags,
        security,
        summary:
          'Payer un contrat de transport (son agrégateur, à partir de la date de transport) : la réservation est versée au wallet du transporteur, une seule fois (409 ensuite)',
        params: idParams,
        response: { 200: answer },
      },
      ...guard(CARRIAGE_ROUTE_ROLES.write),
    },
    async (request) => commands.pay(request.actor!, request.params.id),
  );
}

/** The carriage contracts' routes under /api. */
export const registerCarriageContracts: HttpRegistration = async (app) => {
  const commands = new CarriageContractCommands(
    narrowDb<CarriageFactsTables>()(app.deps.db),
    app.commands,
    app.deps.clock,
  );
  const queries = new CarriageQueries(narrowDb<CarriageQueryTables>()(app.deps.db));
  await app.register(async (scope) => carriageRoutes(scope, commands, queries), {
    prefix: '/api',
  });
};
