import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { membersOf } from '../../../identity/index.js';
import type { HttpRegistration } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import { clustersDb, searchIndustrials } from '../queries.js';
import { actorOf, ClusterService, type MoveUsers } from '../service.js';
import {
  auditAnswer,
  configAnswer,
  configureBody,
  configuredAnswer,
  idParams,
  industrialsAnswer,
  industrialsQuery,
  userIdParams,
} from './schemas.js';

const tags = ['clusters'];
const security = [{ bearer: [] }];
const { SUPER_ADMIN, ADMIN, CLUSTER_MANAGER, SFD, INDUSTRIAL, ACCOUNTING } = ROLE;

/** Who may call what (the generated authorization matrix reads the guards). */
export const CLUSTER_ROUTE_ROLES = {
  /** GET clusters/config/{userId}: one's own cluster; administrators any user's. */
  readConfig: [SUPER_ADMIN, ADMIN, CLUSTER_MANAGER, SFD],
  /** POST clusters/create-configs: the cluster manager (the SFD reuses the screen). */
  configure: [CLUSTER_MANAGER, SFD],
  /** GET clusters/cluster/{id}: administrators any; the others their own cluster. */
  readCluster: [SUPER_ADMIN, ADMIN, CLUSTER_MANAGER, SFD, INDUSTRIAL],
  /** GET clusters/industrials: the aggregator select of the configuration screen. */
  industrials: [SUPER_ADMIN, ADMIN, CLUSTER_MANAGER, SFD],
  /** GET clusters/cluster/{id}/audit: who configured what, when. */
  audit: [SUPER_ADMIN, ADMIN, ACCOUNTING, CLUSTER_MANAGER],
} as const;

export function clustersRoutes(
  scope: FastifyInstance,
  service: ClusterService,
  searchAggregators: (q: string | undefined, limit: number) => ReturnType<typeof searchIndustrials>,
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  // The guard runs at onRequest too, so a caller without the role gets 401/403 before its
  // query or body is validated.
  const guard = (roles: readonly (typeof ROLE)[keyof typeof ROLE][]) => {
    const check = scope.requireRoles(...roles);
    return { onRequest: [check], preHandler: [check] };
  };

  app.get(
    '/clusters/config/:userId',
    {
      schema: {
        tags,
        security,
        summary:
          'Configuration du cluster d’un utilisateur (le sien ; tout utilisateur pour les administrateurs) : nom, agrégateur, coopératives, producteurs sans coopérative, et les choix proposés',
        params: userIdParams,
        response: { 200: configAnswer },
      },
      ...guard(CLUSTER_ROUTE_ROLES.readConfig),
    },
    async (request) => service.configOf(actorOf(request.actor!), request.params.userId),
  );

  app.post(
    '/clusters/create-configs',
    {
      schema: {
        tags,
        security,
        summary:
          'Configure son cluster : nom, agrégateur (obligatoire), coopératives et producteurs sans coopérative à y rattacher',
        body: configureBody,
        response: { 201: configuredAnswer },
      },
      ...guard(CLUSTER_ROUTE_ROLES.configure),
    },
    async (request, reply) => {
      const data = await service.configure(actorOf(request.actor!), request.body);
      return reply.code(201).send({ message: 'Mise à jour effectuée avec succès', data });
    },
  );

  app.get(
    '/clusters/cluster/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Un cluster et sa configuration (les administrateurs : tous ; les autres : le leur)',
        params: idParams,
        response: { 200: configAnswer },
      },
      ...guard(CLUSTER_ROUTE_ROLES.readCluster),
    },
    async (request) => service.cluster(actorOf(request.actor!), request.params.id),
  );

  app.get(
    '/clusters/cluster/:id/audit',
    {
      schema: {
        tags,
        security,
        summary: 'Historique de la configuration d’un cluster (qui a changé quoi et quand)',
        params: idParams,
        response: { 200: auditAnswer },
      },
      ...guard(CLUSTER_ROUTE_ROLES.audit),
    },
    async (request) => service.audit(scope.eventStore, request.actor!, request.params.id),
  );

  app.get(
    '/clusters/industrials',
    {
      schema: {
        tags,
        security,
        summary: 'Agrégateurs actifs (choix de l’agrégateur du cluster), recherche q',
        querystring: industrialsQuery,
        response: { 200: industrialsAnswer },
      },
      ...guard(CLUSTER_ROUTE_ROLES.industrials),
    },
    async (request) => searchAggregators(request.query.q, request.query.limit),
  );
}

export const registerClusters: HttpRegistration = async (app) => {
  const db = clustersDb(app.deps.db);
  // The moved cooperatives' representatives and growers: identity's members face (audited).
  const moveUsers: MoveUsers = (userIds, clusterId, actorId) =>
    membersOf(app).setCluster(userIds, clusterId, actorId);
  const service = new ClusterService(db, app.commands, moveUsers);
  await app.register(
    async (scope) => clustersRoutes(scope, service, (q, limit) => searchIndustrials(db, q, limit)),
    { prefix: '/api' },
  );
};
