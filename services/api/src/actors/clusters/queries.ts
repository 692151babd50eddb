import { sql, type Kysely } from 'kysely';
import type { IdentityTables } from '../../identity/index.js';
import type { ClustersTables } from './tables.js';
import type { Candidate } from './domain/configuration.js';

/** What the clusters area reads: its settings and identity's clusters, users, organisations. */
export type ClustersDb = Kysely<ClustersTables & IdentityTables>;

/**
 * The cooperatives and growers tables belong to other areas (cooperatives, growers): this
 * area reads and moves them with the few statements below (SQL naming their columns
 * `organization_id`/`id`, `user_id`, `cluster_id`, `cooperative_id`, `deactivated_at`).
 * `to_regclass` lets a database without one of those areas yet answer with none.
 */
async function hasTable(db: Kysely<any>, table: 'growers' | 'cooperatives'): Promise<boolean> {
  const { rows } = await sql<{ t: string | null }>`select to_regclass(${table})::text as t`.execute(
    db,
  );
  return rows[0]?.t != null;
}

export interface IndustrialOption {
  id: string;
  firstname: string;
  lastname: string;
  organization: { id: string; denomination: string } | null;
}

export interface ClusterConfigView {
  cluster: { id: string; label: string };
  industrial: IndustrialOption | null;
  manager: { id: string; firstname: string; lastname: string } | null;
  updatedAt: string | null;
  /** Organisation ids of the cluster's cooperatives. */
  cooperatives: string[];
  /** Ids of the cluster's growers without cooperative. */
  growers: string[];
  /** What the screen offers: the cluster's and the unassigned ones (active). */
  options: {
    cooperatives: { id: string; label: string; reference: string; clusterId: string | null }[];
    growers: {
      id: string;
      clusterId: string | null;
      user: { firstname: string; lastname: string; phone: string | null };
    }[];
  };
}

export async function findCluster(db: ClustersDb, clusterId: string) {
  return db
    .selectFrom('clusters')
    .select(['id', 'label', 'created_at'])
    .where('id', '=', clusterId)
    .executeTakeFirst();
}

export async function findIndustrial(
  db: ClustersDb,
  userId: string,
): Promise<IndustrialOption | undefined> {
  const row = await db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .leftJoin('organizations', 'organizations.id', 'users.organization_id')
    .select([
      'users.id',
      'users.firstname',
      'users.lastname',
      'organizations.id as organization_id',
      'organizations.denomination',
    ])
    .where('users.id', '=', userId)
    .where('roles.code', '=', 'ROLE_INDUSTRIAL')
    .where('users.is_active', '=', true)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  return row && toIndustrial(row);
}

const toIndustrial = (row: {
  id: string;
  firstname: string;
  lastname: string;
  organization_id: string | null;
  denomination: string | null;
}): IndustrialOption => ({
  id: row.id,
  firstname: row.firstname,
  lastname: row.lastname,
  organization: row.organization_id
    ? { id: row.organization_id, denomination: row.denomination ?? '' }
    : null,
});

/** Active aggregators matching `q` (names, organisation, e-mail), for the aggregator select. */
export async function searchIndustrials(
  db: ClustersDb,
  q: string | undefined,
  limit: number,
): Promise<{ data: IndustrialOption[]; count: number }> {
  let query = db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .leftJoin('organizations', 'organizations.id', 'users.organization_id')
    .where('roles.code', '=', 'ROLE_INDUSTRIAL')
    .where('users.is_active', '=', true)
    .where('users.deleted_at', 'is', null);
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb('users.firstname', 'ilike', like),
        eb('users.lastname', 'ilike', like),
        eb('users.email', 'ilike', like),
        eb('organizations.denomination', 'ilike', like),
      ]),
    );
  }
  const [rows, total] = await Promise.all([
    query
      .select([
        'users.id',
        'users.firstname',
        'users.lastname',
        'organizations.id as organization_id',
        'organizations.denomination',
      ])
      .orderBy('users.lastname')
      .orderBy('users.firstname')
      .orderBy('users.id')
      .$if(limit > 0, (qb) => qb.limit(limit))
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { data: rows.map(toIndustrial), count: Number(total.n) };
}

export async function readConfig(
  db: ClustersDb,
  cluster: { id: string; label: string },
): Promise<ClusterConfigView> {
  const settings = await db
    .selectFrom('cluster_settings')
    .leftJoin('users as manager', 'manager.id', 'cluster_settings.manager_user_id')
    .select([
      'cluster_settings.industrial_user_id',
      'cluster_settings.updated_at',
      'manager.id as manager_id',
      'manager.firstname as manager_firstname',
      'manager.lastname as manager_lastname',
    ])
    .where('cluster_settings.cluster_id', '=', cluster.id)
    .executeTakeFirst();
  const industrial = settings?.industrial_user_id
    ? await readIndustrial(db, settings.industrial_user_id)
    : null;
  const cooperatives = (await hasTable(db, 'cooperatives'))
    ? (
        await sql<{ id: string; label: string; reference: string; cluster_id: string | null }>`
          select c.organization_id as id, o.denomination as label, c.reference, c.cluster_id
          from cooperatives c join organizations o on o.id = c.organization_id
          where c.deactivated_at is null and (c.cluster_id = ${cluster.id} or c.cluster_id is null)
          order by o.denomination, c.organization_id`.execute(db)
      ).rows
    : [];
  const growers = (await hasTable(db, 'growers'))
    ? (
        await sql<{
          id: string;
          cluster_id: string | null;
          firstname: string;
          lastname: string;
          phone: string | null;
        }>`
          select g.id, g.cluster_id, u.firstname, u.lastname, u.phone
          from growers g join users u on u.id = g.user_id
          where g.deactivated_at is null and g.cooperative_id is null
            and (g.cluster_id = ${cluster.id} or g.cluster_id is null)
          order by u.lastname, u.firstname, g.id`.execute(db)
      ).rows
    : [];
  return {
    cluster: { id: cluster.id, label: cluster.label },
    industrial: industrial ?? null,
    manager: settings?.manager_id
      ? {
          id: settings.manager_id,
          firstname: settings.manager_firstname ?? '',
          lastname: settings.manager_lastname ?? '',
        }
      : null,
    updatedAt: settings ? new Date(settings.updated_at).toISOString() : null,
    cooperatives: cooperatives.filter((c) => c.cluster_id === cluster.id).map((c) => c.id),
    growers: growers.filter((g) => g.cluster_id === cluster.id).map((g) => g.id),
    options: {
      cooperatives: cooperatives.map((c) => ({
        id: c.id,
        label: c.label,
        reference: c.reference,
        clusterId: c.cluster_id,
      })),
      growers: growers.map((g) => ({
        id: g.id,
        clusterId: g.cluster_id,
        user: { firstname: g.firstname, lastname: g.lastname, phone: g.phone },
      })),
    },
  };
}

/** The configured aggregator, even if since deactivated (the read-back shows who it was). */
async function readIndustrial(
  db: ClustersDb,
  userId: string,
): Promise<IndustrialOption | undefined> {
  const row = await db
    .selectFrom('users')
    .leftJoin('organizations', 'organizations.id', 'users.organization_id')
    .select([
      'users.id',
      'users.firstname',
      'users.lastname',
      'organizations.id as organization_id',
      'organizations.denomination',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  return row && toIndustrial(row);
}

/** The requested cooperatives (active), by organisation id. */
export async function cooperativeCandidates(
  db: ClustersDb,
  ids: readonly string[],
): Promise<Map<string, Candidate>> {
  if (!ids.length || !(await hasTable(db, 'cooperatives'))) return new Map();
  const { rows } = await sql<{ id: string; label: string; cluster_id: string | null }>`
    select c.organization_id as id, o.denomination as label, c.cluster_id
    from cooperatives c join organizations o on o.id = c.organization_id
    where c.deactivated_at is null and c.organization_id = any(${[...ids]}::uuid[])
    for update of c`.execute(db);
  return new Map(rows.map((r) => [r.id, { id: r.id, label: r.label, clusterId: r.cluster_id }]));
}

/** The requested growers (active), by id. */
export async function growerCandidates(
  db: ClustersDb,
  ids: readonly string[],
): Promise<Map<string, Candidate>> {
  if (!ids.length || !(await hasTable(db, 'growers'))) return new Map();
  const { rows } = await sql<{
    id: string;
    firstname: string;
    lastname: string;
    cluster_id: string | null;
    cooperative_id: string | null;
  }>`
    select g.id, u.firstname, u.lastname, g.cluster_id, g.cooperative_id
    from growers g join users u on u.id = g.user_id
    where g.deactivated_at is null and g.id = any(${[...ids]}::uuid[])
    for update of g`.execute(db);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        label: `${r.firstname} ${r.lastname}`,
        clusterId: r.cluster_id,
        cooperativeId: r.cooperative_id,
      },
    ]),
  );
}

/**
 * Moves the cooperatives (with their growers) and the growers into the cluster; returns the
 * users whose `users.cluster_id` must follow (representatives and growers).
 */
export async function moveIntoCluster(
  db: ClustersDb,
  clusterId: string,
  cooperativeIds: readonly string[],
  growerIds: readonly string[],
): Promise<string[]> {
  const userIds: string[] = [];
  if (cooperativeIds.length) {
    const { rows } = await sql<{ user_id: string }>`
      update cooperatives set cluster_id = ${clusterId}, updated_at = now()
      where organization_id = any(${[...cooperativeIds]}::uuid[])
      returning user_id`.execute(db);
    userIds.push(...rows.map((r) => r.user_id));
    if (await hasTable(db, 'growers')) {
      const moved = await sql<{ user_id: string }>`
        update growers set cluster_id = ${clusterId}
        where cooperative_id = any(${[...cooperativeIds]}::uuid[])
          and cluster_id is distinct from ${clusterId}
        returning user_id`.execute(db);
      userIds.push(...moved.rows.map((r) => r.user_id));
    }
  }
  if (growerIds.length) {
    const { rows } = await sql<{ user_id: string }>`
      update growers set cluster_id = ${clusterId}
      where id = any(${[...growerIds]}::uuid[])
      returning user_id`.execute(db);
    userIds.push(...rows.map((r) => r.user_id));
  }
  return [...new Set(userIds)];
}
