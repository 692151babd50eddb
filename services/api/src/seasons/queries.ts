import { sql } from 'kysely';
import { ForbiddenError, NotFoundError } from '@filiere/platform';
import { ROLE } from '../kernel/roles.js';
import { SEASON_MESSAGES } from './domain/index.js';
import type { SeasonsDb } from './tables.js';
import { identityUsers } from '../identity/index.js';

/** A page request: `page` from 1, `limit` (10 by default on the screens). */
export interface PageQuery {
  q?: string | undefined;
  status?: string | undefined;
  page: number;
  limit: number;
}

export interface Viewer {
  userId: string;
  role: string;
}

/** The roles that see every season and every industrial's figures. */
export const SEASON_STAFF: readonly string[] = [ROLE.SUPER_ADMIN, ROLE.CLUSTER_MANAGER];

export const REACH_MESSAGES = {
  notYourSeason: 'Vous n’êtes pas rattaché à cette saison',
  notYourLinks: 'Vous ne pouvez consulter que vos propres saisons',
} as const;

const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const seasonColumns = [
  'seasons.id',
  'seasons.label',
  'seasons.from_date',
  'seasons.to_date',
  'seasons.unit_product_amount',
  'seasons.production_index',
  'seasons.quotity',
  'seasons.fertilizers',
  'seasons.is_active',
  'seasons.status',
  'seasons.created_at',
  'seasons.industrials_count',
  'seasons.total_quantity',
  'seasons.total_production_amount',
  'seasons.total_fertilizer_amount',
  'seasons.total_min_supply_amount',
] as const;

type SeasonRow = {
  id: number;
  label: string;
  from_date: string;
  to_date: string;
  unit_product_amount: number;
  production_index: string;
  quotity: string;
  fertilizers: { fertilizerId: number; typeId: number; amount: number; index: number }[];
  is_active: boolean;
  status: string;
  created_at: Date;
  industrials_count: number;
  total_quantity: number;
  total_production_amount: number;
  total_fertilizer_amount: number;
  total_min_supply_amount: number;
};

/** A season as the lists show it: its fields and the sums over its industrials. */
export function seasonView(row: SeasonRow) {
  return {
    id: row.id,
    label: row.label,
    from: row.from_date,
    to: row.to_date,
    unitProductAmount: row.unit_product_amount,
    productionIndex: Number(row.production_index),
    quotity: Number(row.quotity),
    isActive: row.is_active,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    industrialsCount: row.industrials_count,
    quantity: row.total_quantity,
    productionAmount: row.total_production_amount,
    fertilizerAmount: row.total_fertilizer_amount,
    minSupplyAmount: row.total_min_supply_amount,
  };
}

export type SeasonView = ReturnType<typeof seasonView>;

/** Dates of the read model come back as 'YYYY-MM-DD' text. */
const asDates = sql<string>`to_char(seasons.from_date, 'YYYY-MM-DD')`;
const toDates = sql<string>`to_char(seasons.to_date, 'YYYY-MM-DD')`;

export class SeasonQueries {
  constructor(private readonly db: SeasonsDb) {}

  private seasons() {
    return this.db
      .selectFrom('seasons')
      .select(seasonColumns)
      .select([asDates.as('from_date'), toDates.as('to_date')])
      .where('seasons.archived', '=', false);
  }

  /** GET seasons: every season not archived (search by name, status filter), newest first. */
  async list(query: PageQuery): Promise<{ data: SeasonView[]; count: number }> {
    let rows = this.seasons();
    if (query.q) rows = rows.where('seasons.label', 'ilike', like(query.q));
    if (query.status) {
      const status = query.status === 'NEW' ? 'CREATED' : query.status;
      rows = rows.where('seasons.status', '=', status);
    }
    const [data, count] = await Promise.all([
      rows
        .orderBy('seasons.created_at', 'desc')
        .orderBy('seasons.id', 'desc')
        .offset((query.page - 1) * query.limit)
        .limit(query.limit)
        .execute(),
      rows
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { data: data.map((r) => seasonView(r as SeasonRow)), count: Number(count.n) };
  }

  private async fertilizerNames(): Promise<Map<number, { label: string; typeLabel: string }>> {
    const rows = await this.db
      .selectFrom('fertilizers')
      .innerJoin('fertilizer_types', 'fertilizer_types.id', 'fertilizers.type_id')
      .select(['fertilizers.id', 'fertilizers.label', 'fertilizer_types.label as typeLabel'])
      .execute();
    return new Map(rows.map((r) => [r.id, { label: r.label, typeLabel: r.typeLabel }]));
  }

  private links(seasonId: number) {
    return this.db
      .selectFrom('season_links')
      .innerJoin(identityUsers().as('users'), 'users.id', 'season_links.user_id')
      .select([
        'season_links.id as linkId',
        'season_links.season_id as seasonId',
        'season_links.user_id as userId',
        'users.firstname',
        'users.lastname',
        'users.phone',
        'season_links.quantity',
        'season_links.production_amount as productionAmount',
        'season_links.fertilizer_amount as fertilizerAmount',
        'season_links.min_supply_amount as minSupplyAmount',
        'season_links.status',
        'season_links.attached_at as attachedAt',
        'season_links.expires_at as expiresAt',
        'season_links.accepted_at as acceptedAt',
      ])
      .where('season_links.season_id', '=', seasonId)
      .orderBy('season_links.attached_at')
      .orderBy('season_links.id');
  }

  /**
   * GET clusters/{id}: the season, its fertilizer lines (with names) and its industrials.
   * An industrial sees it only when attached, with its own link and figures (403 otherwise).
   */
  async detail(viewer: Viewer, seasonId: number) {
    const row = await this.seasons().where('seasons.id', '=', seasonId).executeTakeFirst();
    if (!row) throw new NotFoundError(SEASON_MESSAGES.notFound);
    const staff = SEASON_STAFF.includes(viewer.role);
    let links = await this.links(seasonId).execute();
    if (!staff) {
      links = links.filter((l) => l.userId === viewer.userId);
      if (links.length === 0) throw new ForbiddenError(REACH_MESSAGES.notYourSeason);
    }
    const names = await this.fertilizerNames();
    const season = seasonView(row as SeasonRow);
    const own = staff ? undefined : links[0]!;
    return {
      ...season,
      // An industrial sees its own figures (seasons.md §6).
      ...(own
        ? {
            quantity: own.quantity,
            productionAmount: own.productionAmount,
            fertilizerAmount: own.fertilizerAmount,
            minSupplyAmount: own.minSupplyAmount,
            industrialsCount: 1,
          }
        : {}),
      fertilizers: (row as SeasonRow).fertilizers.map((f) => ({
        ...f,
        label: names.get(f.fertilizerId)?.label ?? null,
        typeLabel: names.get(f.fertilizerId)?.typeLabel ?? null,
      })),
      industrials: links.map(linkView),
    };
  }

  /** GET clusters/{id}/linked-industrials (staff): the season's industrials. */
  async linkedIndustrials(seasonId: number) {
    const season = await this.seasons().where('seasons.id', '=', seasonId).executeTakeFirst();
    if (!season) throw new NotFoundError(SEASON_MESSAGES.notFound);
    const data = (await this.links(seasonId).execute()).map(linkView);
    return { data, count: data.length };
  }

  /** One industrial's link to a season (undefined when none). */
  async link(seasonId: number, userId: string) {
    const row = await this.links(seasonId)
      .where('season_links.user_id', '=', userId)
      .executeTakeFirst();
    return row ? linkView(row) : undefined;
  }

  /**
   * GET clusters/industrial/{userId}: the industrial's seasons ('Financement de la saison'),
   * each with its own link's status and figures; `status` filters the link's status.
   */
  async ofIndustrial(userId: string, query: PageQuery) {
    let rows = this.db
      .selectFrom('season_links')
      .innerJoin('seasons', 'seasons.id', 'season_links.season_id')
      .where('season_links.user_id', '=', userId)
      .where('seasons.archived', '=', false);
    if (query.q) rows = rows.where('seasons.label', 'ilike', like(query.q));
    if (query.status) rows = rows.where('season_links.status', '=', query.status);
    const [data, count] = await Promise.all([
      rows
        .select([
          'seasons.id',
          'seasons.label',
          asDates.as('from'),
          toDates.as('to'),
          'seasons.is_active as isActive',
          'season_links.id as linkId',
          'season_links.status',
          'season_links.quantity',
          'season_links.production_amount as productionAmount',
          'season_links.fertilizer_amount as fertilizerAmount',
          'season_links.min_supply_amount as minSupplyAmount',
          'season_links.expires_at as expiresAt',
          'season_links.accepted_at as acceptedAt',
        ])
        .orderBy('season_links.attached_at', 'desc')
        .orderBy('season_links.id', 'desc')
        .offset((query.page - 1) * query.limit)
        .limit(query.limit)
        .execute(),
      rows.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      data: data.map((r) => ({
        ...r,
        expiresAt: r.expiresAt.toISOString(),
        acceptedAt: r.acceptedAt?.toISOString() ?? null,
      })),
      count: Number(count.n),
    };
  }

  /** The bell: the industrial's invitations still open (PENDING, not expired). */
  async invitations(userId: string, now: Date) {
    const rows = await this.db
      .selectFrom('season_links')
      .innerJoin('seasons', 'seasons.id', 'season_links.season_id')
      .select([
        'season_links.id as linkId',
        'seasons.id as seasonId',
        'seasons.label',
        asDates.as('from'),
        toDates.as('to'),
        'season_links.quantity',
        'season_links.attached_at as attachedAt',
        'season_links.expires_at as expiresAt',
      ])
      .where('season_links.user_id', '=', userId)
      .where('season_links.status', '=', 'PENDING')
      .where('season_links.expires_at', '>', now)
      .where('seasons.archived', '=', false)
      .orderBy('season_links.attached_at', 'desc')
      .execute();
    const data = rows.map((r) => ({
      ...r,
      attachedAt: r.attachedAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
    }));
    return { data, count: data.length };
  }

  /** PENDING invitations past their expiry (the expiry job's work). */
  async dueInvitations(now: Date, limit: number) {
    const rows = await this.db
      .selectFrom('season_links')
      .select(['season_id', 'user_id', 'expires_at'])
      .where('status', '=', 'PENDING')
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      seasonId: r.season_id,
      userId: r.user_id,
      expiresAt: r.expires_at.toISOString(),
    }));
  }
}

interface LinkRow {
  linkId: number;
  seasonId: number;
  userId: string;
  firstname: string;
  lastname: string;
  phone: string | null;
  quantity: number;
  productionAmount: number;
  fertilizerAmount: number;
  minSupplyAmount: number;
  status: string;
  attachedAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
}

/** An industrial's link: who, the quantity and the three amounts, status and dates. */
export function linkView(row: LinkRow) {
  return {
    linkId: row.linkId,
    seasonId: row.seasonId,
    userId: row.userId,
    user: { firstname: row.firstname, lastname: row.lastname, phone: row.phone },
    quantity: row.quantity,
    productionAmount: row.productionAmount,
    fertilizerAmount: row.fertilizerAmount,
    minSupplyAmount: row.minSupplyAmount,
    status: row.status,
    attachedAt: row.attachedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
  };
}

export type LinkView = ReturnType<typeof linkView>;
