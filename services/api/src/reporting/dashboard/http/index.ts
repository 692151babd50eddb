import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ForbiddenError, NotFoundError, narrowDb } from '@filiere/platform';
import { userLoader } from '../../../identity/index.js';
import type { SignedInUser } from '../../../kernel/actor.js';
import type { HttpRegistration } from '../../../kernel/module.js';
import { ROLE, type RoleCode } from '../../../kernel/roles.js';
import { DashboardQueries, type DashboardQueryTables, type StatsScope } from '../queries.js';
import { resolveRange } from '../range.js';
import {
  contractsStatsAnswer,
  contractsStatsQuery,
  personalDashboardAnswer,
  rangeQuery,
  statsParams,
  type ContractsStatsQuery,
} from '../schemas.js';

const tags = ['reporting'];
const security = [{ bearer: [] }];
const { SUPER_ADMIN, ADMIN, CLUSTER_MANAGER, INDUSTRIAL, GROWER, FARMER_ORGANIZATION, SFD } = ROLE;

/** Who may call what (the generated authorization matrix reads the guards). */
export const DASHBOARD_ROUTE_ROLES = {
  /** contracts/stats (and /{id}): the roles with contracts to follow. */
  stats: [SUPER_ADMIN, ADMIN, CLUSTER_MANAGER, INDUSTRIAL],
  /** dashboard/me: the roles whose dashboard is about themselves. */
  me: [GROWER, FARMER_ORGANIZATION, SFD],
} as const;

export const DASHBOARD_MESSAGES = {
  noCluster: 'Vous n’êtes rattaché à aucun cluster',
  otherCluster: 'Ce cluster n’est pas le vôtre',
  otherAggregator: 'Vous ne pouvez consulter que vos propres statistiques',
  aggregatorOutOfCluster: 'Cet agrégateur n’appartient pas à votre cluster',
  aggregatorNotFound: 'Agrégateur introuvable',
  clusterNotFound: 'Cluster introuvable',
  noCooperative: 'Votre compte n’est rattaché à aucune organisation de producteurs',
} as const;

const GLOBAL_ROLES: readonly RoleCode[] = [SUPER_ADMIN, ADMIN];

/**
 * The scope of a `contracts/stats` request: the caller's reach narrowed by `clusterId` and
 * `aggregatorId`; anything outside the reach is refused (403), an unknown id is 404.
 */
async function scopeOf(
  db: Kysely<DashboardQueryTables>,
  loadUser: (id: string) => Promise<SignedInUser | undefined>,
  caller: SignedInUser,
  query: Pick<ContractsStatsQuery, 'clusterId' | 'aggregatorId'>,
): Promise<StatsScope> {
  const role = caller.role_code;
  if (role === INDUSTRIAL) {
    if (query.aggregatorId && query.aggregatorId !== caller.id) {
      throw new ForbiddenError(DASHBOARD_MESSAGES.otherAggregator);
    }
    if (query.clusterId && query.clusterId !== caller.cluster_id) {
      throw new ForbiddenError(DASHBOARD_MESSAGES.otherCluster);
    }
    return { kind: 'AGGREGATOR', aggregatorId: caller.id };
  }
  if (role === CLUSTER_MANAGER) {
    if (!caller.cluster_id) throw new ForbiddenError(DASHBOARD_MESSAGES.noCluster);
    if (query.clusterId && query.clusterId !== caller.cluster_id) {
      throw new ForbiddenError(DASHBOARD_MESSAGES.otherCluster);
    }
  }
  if (query.aggregatorId) {
    const target = await loadUser(query.aggregatorId);
    if (!target || target.role_code !== INDUSTRIAL) {
      if (!GLOBAL_ROLES.includes(role)) {
        throw new ForbiddenError(DASHBOARD_MESSAGES.aggregatorOutOfCluster);
      }
      throw new NotFoundError(DASHBOARD_MESSAGES.aggregatorNotFound);
    }
    if (role === CLUSTER_MANAGER && target.cluster_id !== caller.cluster_id) {
      throw new ForbiddenError(DASHBOARD_MESSAGES.aggregatorOutOfCluster);
    }
    return { kind: 'AGGREGATOR', aggregatorId: target.id };
  }
  if (role === CLUSTER_MANAGER) return { kind: 'CLUSTER', clusterId: caller.cluster_id! };
  if (query.clusterId) {
    const cluster = await db
      .selectFrom('clusters')
      .select('id')
      .where('id', '=', query.clusterId)
      .executeTakeFirst();
    if (!cluster) throw new NotFoundError(DASHBOARD_MESSAGES.clusterNotFound);
    return { kind: 'CLUSTER', clusterId: cluster.id };
  }
  return { kind: 'ALL' };
}

export function dashboardRoutes(
  scope: FastifyInstance,
  queries: DashboardQueries,
  db: Kysely<DashboardQueryTables>,
  now: () => Date,
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const loadUser = userLoader(scope.deps.db);
  // The role guard runs before validation (onRequest): a caller without the role gets 401/403.
  const guard = (roles: readonly RoleCode[]) => {
    const handlers = [scope.requireRoles(...roles)];
    return { onRequest: handlers, preHandler: handlers };
  };

  app.get(
    '/contracts/stats',
    {
      schema: {
        tags,
        security,
        summary:
          'Tableau de bord : cartes et séries mensuelles des contrats et des dettes des producteurs (agrégateur : les siens ; gestionnaire de cluster : son cluster ; super admin et admin : tout, un cluster ou un agrégateur)',
        querystring: contractsStatsQuery,
        response: { 200: contractsStatsAnswer },
      },
      ...guard(DASHBOARD_ROUTE_ROLES.stats),
    },
    async (request) => {
      const scoped = await scopeOf(db, loadUser, request.actor!, request.query);
      return queries.cachedStats(scoped, resolveRange(request.query, now()));
    },
  );

  app.get(
    '/contracts/stats/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Tableau de bord d’un utilisateur (l’appel du spec avec l’id de l’utilisateur) : le sien, ou celui d’un agrégateur à sa portée',
        params: statsParams,
        querystring: contractsStatsQuery,
        response: { 200: contractsStatsAnswer },
      },
      ...guard(DASHBOARD_ROUTE_ROLES.stats),
    },
    async (request) => {
      const caller = request.actor!;
      const { id } = request.params;
      const scoped =
        id === caller.id
          ? await scopeOf(db, loadUser, caller, request.query)
          : await scopeOf(db, loadUser, caller, { aggregatorId: id });
      return queries.cachedStats(scoped, resolveRange(request.query, now()));
    },
  );

  app.get(
    '/dashboard/me',
    {
      schema: {
        tags,
        security,
        summary:
          'Tableau de bord des rôles sans contrats à gérer : producteur (ses contrats, dettes, paiements), organisation de producteurs (ceux de ses producteurs), SFD (ses financements et recouvrements)',
        querystring: rangeQuery,
        response: { 200: personalDashboardAnswer },
      },
      ...guard(DASHBOARD_ROUTE_ROLES.me),
    },
    async (request) => {
      const caller = request.actor!;
      const range = resolveRange(request.query, now());
      if (caller.role_code === SFD)
        return queries.personal({ kind: 'SFD', userId: caller.id }, range);
      if (caller.role_code === FARMER_ORGANIZATION) {
        if (!caller.organization_id) throw new ForbiddenError(DASHBOARD_MESSAGES.noCooperative);
        return queries.personal(
          { kind: 'FARMER_ORGANIZATION', organizationId: caller.organization_id },
          range,
        );
      }
      return queries.personal({ kind: 'GROWER', userId: caller.id }, range);
    },
  );
}

export const registerDashboard: HttpRegistration = async (app) => {
  const db = narrowDb<DashboardQueryTables>()(app.deps.db);
  const queries = new DashboardQueries(db);
  await app.register(async (scope) => dashboardRoutes(scope, queries, db, () => new Date()), {
    prefix: '/api',
  });
};
