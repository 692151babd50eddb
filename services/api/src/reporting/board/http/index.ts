import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BusinessRuleError, NotFoundError, beninDay, narrowDb } from '@filiere/platform';
import type { HttpRegistration } from '../../../kernel/module.js';
import { ROLE, type RoleCode } from '../../../kernel/roles.js';
import { boardXlsx, MAX_BOARD_EXPORT_ROWS } from '../export.js';
import { BoardQueries, type BoardQueryTables } from '../queries.js';
import {
  clusterQuery,
  growersStatsAnswer,
  growersStatsQuery,
  transactionsStatsAnswer,
} from '../schemas.js';

const tags = ['reporting'];
const security = [{ bearer: [] }];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Who may call what (the generated authorization matrix reads the guards). */
export const BOARD_ROUTE_ROLES = {
  /** The reporting board (§6 'Reporting: super admin'). */
  board: [ROLE.SUPER_ADMIN],
} as const;

export const BOARD_MESSAGES = {
  clusterNotFound: 'Cluster introuvable',
  tooMany: (n: number) =>
    `Trop de producteurs pour un seul fichier (${n} ; au plus ${MAX_BOARD_EXPORT_ROWS}) : choisissez un cluster`,
} as const;

export function boardRoutes(scope: FastifyInstance, queries: BoardQueries): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const guard = (roles: readonly RoleCode[]) => {
    const handlers = [scope.requireRoles(...roles)];
    return { onRequest: handlers, preHandler: handlers };
  };
  const knownCluster = async (clusterId: string | undefined) => {
    if (clusterId && !(await queries.clusterExists(clusterId))) {
      throw new NotFoundError(BOARD_MESSAGES.clusterNotFound);
    }
  };

  app.get(
    '/reporting/growers-stats',
    {
      schema: {
        tags,
        security,
        summary:
          'Reporting : producteurs (Nom, Prénoms, Téléphone, Superficie emblavée (ha)) paginés et cherchables, et leurs trois cartes ; tous ou un cluster (super admin)',
        querystring: growersStatsQuery,
        response: { 200: growersStatsAnswer },
      },
      ...guard(BOARD_ROUTE_ROLES.board),
    },
    async (request) => {
      await knownCluster(request.query.clusterId);
      return queries.growersStats(request.query);
    },
  );

  app.get(
    '/reporting/transactions-stats',
    {
      schema: {
        tags,
        security,
        summary:
          'Reporting : les six cartes des transactions (retraits, approvisionnements, transferts : nombre et montant) ; tous ou un cluster (super admin)',
        querystring: clusterQuery,
        response: { 200: transactionsStatsAnswer },
      },
      ...guard(BOARD_ROUTE_ROLES.board),
    },
    async (request) => {
      await knownCluster(request.query.clusterId);
      return queries.transactionsStats(request.query.clusterId);
    },
  );

  app.get(
    '/reporting/export.xlsx',
    {
      schema: {
        tags,
        security,
        summary:
          'Télécharger le reporting (.xlsx) : les cartes des transactions et le tableau des producteurs ; tous ou un cluster (super admin)',
        querystring: clusterQuery,
        response: { 200: z.unknown().describe('the .xlsx file') },
      },
      ...guard(BOARD_ROUTE_ROLES.board),
    },
    async (request, reply) => {
      const { clusterId } = request.query;
      await knownCluster(clusterId);
      const count = await queries.growersCount(clusterId);
      if (count > MAX_BOARD_EXPORT_ROWS) throw new BusinessRuleError(BOARD_MESSAGES.tooMany(count));
      const [transactions, growers] = await Promise.all([
        queries.transactionsStats(clusterId),
        queries.growersStats({ clusterId, page: 1, limit: MAX_BOARD_EXPORT_ROWS }),
      ]);
      const file = await boardXlsx({
        clusterLabel: clusterId ? await queries.clusterLabel(clusterId) : 'Tout',
        transactions,
        growers: growers.data,
        cards: growers.cards,
      });
      return reply
        .type(XLSX)
        .header(
          'content-disposition',
          `attachment; filename="reporting-${beninDay(new Date())}.xlsx"`,
        )
        .send(file);
    },
  );
}

export const registerBoard: HttpRegistration = async (app) => {
  const queries = new BoardQueries(narrowDb<BoardQueryTables>()(app.deps.db));
  await app.register(async (scope) => boardRoutes(scope, queries), { prefix: '/api' });
};
