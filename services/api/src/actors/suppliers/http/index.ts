import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pgPushPublisher, redisPushPublisher } from '@filiere/projections';
import { membersOf } from '../../../identity/index.js';
import type { HttpRegistration } from '../../../kernel/module.js';
import { ROLE, type RoleCode } from '../../../kernel/roles.js';
import { fertilizersOfType, fertilizerTypes, suppliersDb } from '../queries.js';
import {
  auditAnswer,
  clusterParams,
  createSupplierBody,
  fertilizersAnswer,
  fertilizerTypesAnswer,
  idParams,
  listAnswer,
  listQuery,
  messageAnswer,
  savedAnswer,
  supplierSchema,
  typeParams,
  updateSupplierBody,
} from '../schemas.js';
import { supplierAudit, SuppliersService } from '../service.js';
import { SUPPLIER_MESSAGES } from '../domain/reach.js';
import { NotFoundError } from '@filiere/platform';

const tags = ['input-provider'];
const security = [{ bearer: [] }];
const { SUPER_ADMIN, ADMIN, CLUSTER_MANAGER, INDUSTRIAL, INPUT_PROVIDER, ACCOUNTING } = ROLE;

/** Who may call what (spec §6; reach is checked on the rows, domain/reach.ts). */
export const SUPPLIER_ROUTE_ROLES = {
  /** Lists: administrators all; the cluster manager and the aggregator their cluster's. */
  read: [SUPER_ADMIN, ADMIN, CLUSTER_MANAGER, INDUSTRIAL],
  /** One supplier: the readers above, and the supplier itself. */
  readOne: [SUPER_ADMIN, ADMIN, CLUSTER_MANAGER, INDUSTRIAL, INPUT_PROVIDER],
  /** Register, edit, deactivate. */
  write: [SUPER_ADMIN, ADMIN, CLUSTER_MANAGER],
  /** Reactivate. */
  reactivate: [SUPER_ADMIN],
  /** The supplier's audit trail. */
  audit: [SUPER_ADMIN, ADMIN, ACCOUNTING, CLUSTER_MANAGER],
} as const satisfies Record<string, readonly RoleCode[]>;

export function suppliersRoutes(scope: FastifyInstance, service: SuppliersService): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  // The guard runs at onRequest too, so a caller without the role gets 401/403 before its
  // query or body is validated (a 400 would tell an anonymous caller what the route takes).
  const guard = (roles: readonly RoleCode[]) => {
    const check = scope.requireRoles(...roles);
    return { onRequest: [check], preHandler: [check] };
  };

  app.get(
    '/input-provider',
    {
      schema: {
        tags,
        security,
        summary:
          'Fournisseurs d’intrant (tous pour les administrateurs, ceux de son cluster sinon), recherche q, pagination',
        querystring: listQuery,
        response: { 200: listAnswer },
      },
      ...guard(SUPPLIER_ROUTE_ROLES.read),
    },
    async (request) => service.list(request.actor!, request.query),
  );

  app.get(
    '/input-provider/cluster/:clusterId',
    {
      schema: {
        tags,
        security,
        summary: 'Fournisseurs d’intrant d’un cluster (limit=-1 : tous)',
        params: clusterParams,
        querystring: listQuery,
        response: { 200: listAnswer },
      },
      ...guard(SUPPLIER_ROUTE_ROLES.read),
    },
    async (request) => service.list(request.actor!, request.query, request.params.clusterId),
  );

  app.get(
    '/input-provider/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Un fournisseur d’intrant, ses points de livraison et ses intrants',
        params: idParams,
        response: { 200: supplierSchema },
      },
      ...guard(SUPPLIER_ROUTE_ROLES.readOne),
    },
    async (request) => service.get(request.actor!, request.params.id),
  );

  app.post(
    '/input-provider',
    {
      schema: {
        tags,
        security,
        summary:
          'Enregistre un fournisseur d’intrant (organisation, représentant, points de livraison, intrants, comptes de paiement)',
        body: createSupplierBody,
        response: { 201: savedAnswer },
      },
      ...guard(SUPPLIER_ROUTE_ROLES.write),
    },
    async (request, reply) => {
      const data = await service.create(request.actor!, request.body);
      return reply.code(201).send({ message: SUPPLIER_MESSAGES.created, data });
    },
  );

  app.patch(
    '/input-provider/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Modifie un fournisseur d’intrant (jamais ses comptes de paiement : demande de changement)',
        params: idParams,
        body: updateSupplierBody,
        response: { 200: savedAnswer },
      },
      ...guard(SUPPLIER_ROUTE_ROLES.write),
    },
    async (request) => ({
      message: SUPPLIER_MESSAGES.updated,
      data: await service.update(request.actor!, request.params.id, request.body),
    }),
  );

  app.delete(
    '/input-provider/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Désactive un fournisseur d’intrant (réactivable par le super administrateur)',
        params: idParams,
        response: { 200: messageAnswer },
      },
      ...guard(SUPPLIER_ROUTE_ROLES.write),
    },
    async (request) => service.deactivate(request.actor!, request.params.id),
  );

  app.get(
    '/input-provider/:id/audit',
    {
      schema: {
        tags,
        security,
        summary:
          'Historique d’un fournisseur d’intrant (qui a changé quoi et quand) ; son compte : GET users/{id}/audit',
        params: idParams,
        response: { 200: auditAnswer },
      },
      ...guard(SUPPLIER_ROUTE_ROLES.audit),
    },
    async (request) => supplierAudit(service, scope.eventStore, request.actor!, request.params.id),
  );

  app.post(
    '/input-provider/:id/reactivate',
    {
      schema: {
        tags,
        security,
        summary: 'Réactive un fournisseur d’intrant désactivé',
        params: idParams,
        response: { 200: messageAnswer },
      },
      ...guard(SUPPLIER_ROUTE_ROLES.reactivate),
    },
    async (request) => service.reactivate(request.actor!, request.params.id),
  );
}

/** The fertilizer catalogue (seasons and supplier forms): any signed-in user reads it. */
export function fertilizerRoutes(scope: FastifyInstance, db: ReturnType<typeof suppliersDb>): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/clusters/fertilizer-types',
    {
      schema: {
        tags: ['fertilizers'],
        security,
        summary: 'Types d’intrant (Engrais, Rejets, Film polyéthylène, …)',
        response: { 200: fertilizerTypesAnswer },
      },
      onRequest: [scope.authenticate],
      preHandler: [scope.authenticate],
    },
    async () => fertilizerTypes(db),
  );
  app.get(
    '/clusters/fertilizer-types/:type',
    {
      schema: {
        tags: ['fertilizers'],
        security,
        summary: 'Intrants d’un type',
        params: typeParams,
        response: { 200: fertilizersAnswer },
      },
      onRequest: [scope.authenticate],
      preHandler: [scope.authenticate],
    },
    async (request) => {
      const types = await fertilizerTypes(db);
      if (!types.some((t) => t.id === request.params.type)) {
        throw new NotFoundError(SUPPLIER_MESSAGES.fertilizerTypeNotFound);
      }
      return fertilizersOfType(db, request.params.type);
    },
  );
}

export const registerSuppliers: HttpRegistration = async (app) => {
  const { db: pool, redis } = app.deps;
  const service = new SuppliersService(
    pool,
    membersOf(app),
    app.commands,
    redis ? redisPushPublisher(redis) : pgPushPublisher(pool),
    (error, what) => app.log.warn({ err: error }, what),
  );
  const db = suppliersDb(app.deps.db);
  await app.register(
    async (scope) => {
      suppliersRoutes(scope, service);
      fertilizerRoutes(scope, db);
    },
    { prefix: '/api' },
  );
};
