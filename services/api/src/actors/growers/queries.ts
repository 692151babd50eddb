import { sql, type Kysely } from 'kysely';
import type { IdentityTables } from '../../identity/index.js';
import { momoOperator } from './domain/payout.js';
import type { GrowerScope } from './domain/reach.js';
import {
  PRODUCT_TYPE_LABELS,
  type GrowerDetailDto,
  type GrowerListItemDto,
  type PlotDto,
} from './schemas.js';
import type { GrowersTables } from './tables.js';
import { identityUsers } from '../../identity/index.js';

/** The growers area reads its own tables and identity's (users, organisations, clusters). */
export type GrowersDb = Kysely<GrowersTables & IdentityTables>;

/** Folds a search text as `growers_fold` does in SQL: lower case, no accents. */
export function foldSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/**
 * The words of a search, each a `%word%` pattern (all must match). A phone typed with
 * spaces, dots or a leading + becomes its digits (`97 00 00 01` → `97000001`).
 */
export function searchPatterns(q: string | null | undefined): string[] {
  if (!q) return [];
  const text = foldSearch(q.trim());
  const words = /^[+\d\s.-]+$/.test(text) ? [text.replace(/\D/g, '')] : text.split(/\s+/);
  return words
    .filter((w) => w.length > 0)
    .slice(0, 5)
    .map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}

export interface GrowerFilter {
  scope: Exclude<GrowerScope, { kind: 'none' }>;
  active: boolean;
  q?: string | null | undefined;
  /** Growers of this cluster only (on top of the scope). */
  clusterId?: string;
  /** Growers of this cooperative only (on top of the scope). */
  cooperativeId?: string;
  /** Growers without cooperative only. */
  withoutCooperative?: boolean;
}

export interface Page {
  offset: number;
  /** undefined: every row. */
  limit: number | undefined;
}

/** The growers of a filter (`growers as g`), for a page, its count, or the download. */
export function growersQuery(db: GrowersDb, filter: GrowerFilter) {
  let query = db.selectFrom('growers as g');
  const { scope } = filter;
  if (scope.kind === 'cluster') query = query.where('g.cluster_id', '=', scope.clusterId);
  if (scope.kind === 'cooperative') {
    query = query.where('g.cooperative_id', '=', scope.cooperativeId);
  }
  if (filter.clusterId) query = query.where('g.cluster_id', '=', filter.clusterId);
  if (filter.cooperativeId) query = query.where('g.cooperative_id', '=', filter.cooperativeId);
  if (filter.withoutCooperative) query = query.where('g.cooperative_id', 'is', null);
  query = query.where('g.deactivated_at', filter.active ? 'is' : 'is not', null);
  for (const pattern of searchPatterns(filter.q)) {
    query = query.where('g.search', 'like', pattern);
  }
  return query;
}

const areaOf = (n: string | number | null | undefined): number => Number(n ?? 0);

/** A page of growers (newest first) and the count of the whole filter. */
export async function listGrowers(
  db: GrowersDb,
  filter: GrowerFilter,
  page: Page,
  withCooperative: boolean,
): Promise<{ data: GrowerListItemDto[]; count: number }> {
  // The page's ids first (the index order, no join), then its 10 rows' names and plots: the
  // rows an offset skips are never joined nor summed.
  let ids = growersQuery(db, filter)
    .select(['g.id', 'g.created_at'])
    .orderBy('g.created_at', 'desc')
    .orderBy('g.id', 'desc')
    .offset(page.offset);
  if (page.limit !== undefined) ids = ids.limit(page.limit);
  const rows = db
    .selectFrom(ids.as('pg'))
    .innerJoin('growers as g', 'g.id', 'pg.id')
    .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')
    .leftJoin('organizations as o', 'o.id', 'g.cooperative_id')
    .select([
      'g.id',
      'g.reference',
      'g.cluster_id',
      'g.created_at',
      'g.deactivated_at',
      'u.id as user_id',
      'u.lastname',
      'u.firstname',
      'u.phone',
      'o.id as cooperative_id',
      'o.denomination as cooperative_label',
    ])
    .select((eb) => [
      eb
        .selectFrom('plots as p')
        .whereRef('p.grower_id', '=', 'g.id')
        .select(sql<string>`coalesce(sum(p.area_sown), 0)::text`.as('area'))
        .as('area_sown'),
      eb
        .selectFrom('plots as p')
        .whereRef('p.grower_id', '=', 'g.id')
        .select(sql<string>`count(*)::text`.as('n'))
        .as('plot_count'),
    ])
    .orderBy('pg.created_at', 'desc')
    .orderBy('pg.id', 'desc');
  const [data, total] = await Promise.all([
    rows.execute(),
    growersQuery(db, filter)
      .select(sql<string>`count(*)::text`.as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    count: Number(total.n),
    data: data.map((r) => ({
      id: r.id,
      reference: r.reference,
      user: { id: r.user_id, lastname: r.lastname, firstname: r.firstname, phone: r.phone },
      farmerOrganization:
        withCooperative && r.cooperative_id
          ? { id: r.cooperative_id, label: r.cooperative_label ?? '' }
          : null,
      clusterId: r.cluster_id,
      areaSown: areaOf(r.area_sown),
      plotCount: Number(r.plot_count ?? 0),
      isActive: r.deactivated_at === null,
      createdAt: new Date(r.created_at).toISOString(),
    })),
  };
}

/** The grower's row as the rules need it (reach, state, user). */
export interface GrowerRow {
  id: string;
  reference: string;
  user_id: string;
  cluster_id: string;
  cooperative_id: string | null;
  sub_cooperative: string | null;
  address: string | null;
  department_code: string;
  commune_code: string;
  arrondissement_code: string;
  village_code: string;
  contact_fullname: string | null;
  contact_phone: string | null;
  deactivated_at: Date | null;
}

export async function findGrower(
  db: GrowersDb,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<GrowerRow | undefined> {
  let query = db
    .selectFrom('growers')
    .select([
      'id',
      'reference',
      'user_id',
      'cluster_id',
      'cooperative_id',
      'sub_cooperative',
      'address',
      'department_code',
      'commune_code',
      'arrondissement_code',
      'village_code',
      'contact_fullname',
      'contact_phone',
      'deactivated_at',
    ])
    .where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

const plotColumns = [
  'p.id',
  'p.grower_id',
  'p.product_type',
  'p.department_code',
  'p.commune_code',
  'p.arrondissement_code',
  'p.village_code',
  'p.name',
  'p.address',
  'p.latitude',
  'p.longitude',
  'p.area_sown',
  'p.estimated_production',
  'p.created_at',
  'p.updated_at',
] as const;

type PlotRow = {
  id: string;
  grower_id: string;
  product_type: 'CAYENNE_LISSE' | 'PAIN_DE_SUCRE';
  department_code: string;
  commune_code: string;
  arrondissement_code: string;
  village_code: string;
  name: string;
  address: string | null;
  latitude: string | null;
  longitude: string | null;
  planting: string | null;
  tif: string | null;
  area_sown: string;
  estimated_production: string | null;
  created_at: Date;
  updated_at: Date;
};

const num = (v: string | null): number | null => (v === null ? null : Number(v));

function toPlot(r: PlotRow): PlotDto {
  return {
    id: r.id,
    growerId: r.grower_id,
    productType: r.product_type,
    productTypeLabel: PRODUCT_TYPE_LABELS[r.product_type],
    department: r.department_code,
    borough: r.commune_code,
    district: r.arrondissement_code,
    village: r.village_code,
    location: r.name,
    address: r.address,
    latitude: num(r.latitude),
    longitude: num(r.longitude),
    plantingDate: r.planting,
    tifDate: r.tif,
    areaSown: Number(r.area_sown),
    estimatedProduction: num(r.estimated_production),
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

function plotsQuery(db: GrowersDb) {
  return db
    .selectFrom('plots as p')
    .select(plotColumns)
    .select([
      sql<string | null>`to_char(p.planting_date, 'YYYY-MM-DD')`.as('planting'),
      sql<string | null>`to_char(p.tif_date, 'YYYY-MM-DD')`.as('tif'),
    ]);
}

export async function findPlot(
  db: GrowersDb,
  id: string,
): Promise<(PlotDto & { clusterId: string; cooperativeId: string | null }) | undefined> {
  const row = await plotsQuery(db)
    .innerJoin('growers as g', 'g.id', 'p.grower_id')
    .select(['g.cluster_id', 'g.cooperative_id'])
    .where('p.id', '=', id)
    .executeTakeFirst();
  return row && { ...toPlot(row), clusterId: row.cluster_id, cooperativeId: row.cooperative_id };
}

export async function plotsOf(db: GrowersDb, growerId: string): Promise<PlotDto[]> {
  const rows = await plotsQuery(db).where('p.grower_id', '=', growerId).orderBy('p.seq').execute();
  return rows.map(toPlot);
}

/** GET grower/{id}: the grower, its user, cooperative, cluster and plots. */
export async function growerDetail(
  db: GrowersDb,
  id: string,
  showPayout: boolean,
): Promise<GrowerDetailDto | undefined> {
  const r = await db
    .selectFrom('growers as g')
    .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')
    .leftJoin('organizations as o', 'o.id', 'g.cooperative_id')
    .leftJoin('clusters as c', 'c.id', 'g.cluster_id')
    .select([
      'g.id',
      'g.reference',
      'g.address',
      'g.sub_cooperative',
      'g.cluster_id',
      'g.cooperative_id',
      'g.department_code',
      'g.commune_code',
      'g.arrondissement_code',
      'g.village_code',
      'g.contact_fullname',
      'g.contact_phone',
      'g.deactivated_at',
      'g.created_at',
      'g.created_by',
      'u.id as user_id',
      'u.lastname',
      'u.firstname',
      'u.nip',
      'u.phone',
      'u.email',
      'u.wallet_id',
      'u.momo_account_number',
      'u.bank_account_number',
      sql<string | null>`u.bank_name`.as('bank_name'),
      'o.denomination as cooperative_label',
      'c.label as cluster_label',
    ])
    .where('g.id', '=', id)
    .executeTakeFirst();
  if (!r) return undefined;
  const products = await plotsOf(db, id);
  return {
    id: r.id,
    reference: r.reference,
    address: r.address,
    subCooperative: r.sub_cooperative,
    clusterId: r.cluster_id,
    cluster: r.cluster_label ? { id: r.cluster_id, label: r.cluster_label } : null,
    farmerOrganizationId: r.cooperative_id,
    cooperativeId: r.cooperative_id,
    farmerOrganization: r.cooperative_id
      ? { id: r.cooperative_id, label: r.cooperative_label ?? '' }
      : null,
    user: {
      id: r.user_id,
      lastname: r.lastname,
      firstname: r.firstname,
      nip: r.nip,
      phone: r.phone,
      email: r.email,
      contactFullname: r.contact_fullname,
      contactPhone: r.contact_phone,
      department: r.department_code,
      borough: r.commune_code,
      district: r.arrondissement_code,
      village: r.village_code,
      walletId: r.wallet_id,
    },
    products,
    accountInfo: showPayout
      ? { providerName: r.bank_name, accountNumber: r.bank_account_number }
      : null,
    momoInfo: showPayout
      ? {
          providerName: momoOperator(r.momo_account_number),
          momoNumber: r.momo_account_number,
        }
      : null,
    areaSown: Number(products.reduce((sum, p) => sum + p.areaSown, 0).toFixed(4)),
    isActive: r.deactivated_at === null,
    deactivatedAt: r.deactivated_at ? new Date(r.deactivated_at).toISOString() : null,
    createdAt: new Date(r.created_at).toISOString(),
    createdBy: r.created_by,
  };
}

/**
 * A cooperative a grower may join: an organisation of type COOPERATIVE; when the
 * cooperatives area has its row, its cluster and whether it is deactivated.
 */
export async function findCooperative(
  db: GrowersDb,
  organizationId: string,
): Promise<{ id: string; clusterId: string | null; deactivated: boolean } | undefined> {
  const org = await db
    .selectFrom('organizations')
    .select(['id', 'organization_type'])
    .where('id', '=', organizationId)
    .executeTakeFirst();
  if (!org || org.organization_type !== 'COOPERATIVE') return undefined;
  const { rows } = await sql<{ present: boolean }>`
    select to_regclass('cooperatives') is not null as present`.execute(db);
  if (!rows[0]?.present) return { id: org.id, clusterId: null, deactivated: false };
  const detail = await sql<{ cluster_id: string | null; deactivated_at: Date | null }>`
    select cluster_id, deactivated_at from cooperatives where organization_id = ${org.id}`.execute(
    db,
  );
  const row = detail.rows[0];
  return {
    id: org.id,
    clusterId: row?.cluster_id ?? null,
    deactivated: !!row?.deactivated_at,
  };
}

export async function clusterExists(db: GrowersDb, clusterId: string): Promise<boolean> {
  return !!(await db
    .selectFrom('clusters')
    .select('id')
    .where('id', '=', clusterId)
    .executeTakeFirst());
}

/**
 * Who sees a grower's list change live: every super admin and admin, the staff of its
 * cluster (cluster manager, aggregator, SFD, admin) and its cooperative's users.
 */
export async function growerWatchers(
  db: GrowersDb,
  grower: { clusterId: string; cooperativeId: string | null },
): Promise<string[]> {
  const rows = await db
    .selectFrom(identityUsers().as('u'))
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select('u.id')
    .where('u.deleted_at', 'is', null)
    .where('u.is_active', '=', true)
    .where((eb) =>
      eb.or([
        eb('r.code', 'in', ['ROLE_SUPER_ADMIN', 'ROLE_ADMIN']),
        eb.and([
          eb('u.cluster_id', '=', grower.clusterId),
          eb('r.code', 'in', ['ROLE_CLUSTER_MANAGER', 'ROLE_INDUSTRIAL', 'ROLE_SFD']),
        ]),
        ...(grower.cooperativeId
          ? [
              eb.and([
                eb('u.organization_id', '=', grower.cooperativeId),
                eb('r.code', '=', 'ROLE_FARMER_ORGANIZATION'),
              ]),
            ]
          : []),
      ]),
    )
    .execute();
  return rows.map((r) => r.id);
}
