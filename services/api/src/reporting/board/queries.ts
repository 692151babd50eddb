import { sql, type Kysely } from 'kysely';
import type { IdentityTables } from '../../identity/index.js';
import type { BoardTables } from './tables.js';
import type { GrowersStatsAnswer, TransactionsStatsAnswer } from './schemas.js';
import { identityUsers } from '../../identity/index.js';

/** Its tables, and identity's users (names, phones, a wallet owner's cluster). */
export type BoardQueryTables = BoardTables & Pick<IdentityTables, 'users' | 'clusters'>;

const hectares = (e4: number) => e4 / 10_000;
/** A `q` as an ILIKE pattern matching it anywhere, its wildcards escaped. */
const contains = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The board's reads, from the `reporting-board` projector's tables (names and phones joined
 * from identity's users): nothing is folded per request.
 */
export class BoardQueries {
  constructor(private readonly db: Kysely<BoardQueryTables>) {}

  private growers(clusterId: string | undefined) {
    let q = this.db
      .selectFrom('board_growers as g')
      .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id');
    if (clusterId) q = q.where('g.cluster_id', '=', clusterId);
    return q;
  }

  async clusterExists(clusterId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('clusters')
      .select('id')
      .where('id', '=', clusterId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** `reporting/growers-stats`: one page of growers, the matching count and the three cards. */
  async growersStats(query: {
    clusterId?: string;
    page: number;
    limit: number;
    q?: string;
  }): Promise<GrowersStatsAnswer> {
    const cards = await this.db
      .selectFrom('board_growers')
      .select([
        sql<number>`count(*)::bigint`.as('growers'),
        sql<number>`coalesce(sum(plots), 0)::bigint`.as('plots'),
        sql<number>`coalesce(sum(area_sown_e4), 0)::bigint`.as('area'),
      ])
      .$if(!!query.clusterId, (q) => q.where('cluster_id', '=', query.clusterId!))
      .executeTakeFirstOrThrow();
    let matching = this.growers(query.clusterId);
    if (query.q) {
      const pattern = contains(query.q);
      matching = matching.where((eb) =>
        eb.or([
          eb('u.lastname', 'ilike', pattern),
          eb('u.firstname', 'ilike', pattern),
          eb('u.phone', 'ilike', pattern),
          eb('g.reference', 'ilike', pattern),
          eb(sql`u.firstname || ' ' || u.lastname`, 'ilike', pattern),
          eb(sql`u.lastname || ' ' || u.firstname`, 'ilike', pattern),
        ]),
      );
    }
    const { count } = await matching
      .select(sql<number>`count(*)::bigint`.as('count'))
      .executeTakeFirstOrThrow();
    const rows = await matching
      .select([
        'g.grower_id',
        'g.reference',
        'g.plots',
        'g.area_sown_e4',
        'u.lastname',
        'u.firstname',
        'u.phone',
      ])
      .orderBy('u.lastname')
      .orderBy('u.firstname')
      .orderBy('g.reference')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute();
    return {
      data: rows.map((r) => ({
        growerId: r.grower_id,
        reference: r.reference,
        lastname: r.lastname,
        firstname: r.firstname,
        phone: r.phone,
        areaSown: hectares(r.area_sown_e4),
        plots: r.plots,
      })),
      count,
      cards: { growers: cards.growers, plots: cards.plots, areaSown: hectares(cards.area) },
    };
  }

  async clusterLabel(clusterId: string): Promise<string> {
    const row = await this.db
      .selectFrom('clusters')
      .select('label')
      .where('id', '=', clusterId)
      .executeTakeFirstOrThrow();
    return row.label;
  }

  async growersCount(clusterId: string | undefined): Promise<number> {
    const { count } = await this.db
      .selectFrom('board_growers')
      .select(sql<number>`count(*)::bigint`.as('count'))
      .$if(!!clusterId, (q) => q.where('cluster_id', '=', clusterId!))
      .executeTakeFirstOrThrow();
    return count;
  }

  /** `reporting/transactions-stats`: sums over the wallets of the cluster's users (or all). */
  async transactionsStats(clusterId: string | undefined): Promise<TransactionsStatsAnswer> {
    const sum = (column: keyof BoardTables['board_wallets'] & string) =>
      sql<number>`coalesce(sum(${sql.ref(`w.${column}`)}), 0)::bigint`;
    let q = this.db
      .selectFrom('board_wallets as w')
      .select([
        sum('count_debit').as('countDebit'),
        sum('total_debit').as('totalDebit'),
        sum('count_supplies').as('countSupplies'),
        sum('total_supplies').as('totalSupplies'),
        sum('count_transfer').as('countTransfer'),
        sum('total_transfer').as('totalTransfer'),
      ]);
    if (clusterId) {
      q = q
        .innerJoin(identityUsers().as('u'), 'u.id', 'w.user_id')
        .where('u.cluster_id', '=', clusterId);
    }
    return q.executeTakeFirstOrThrow();
  }
}
