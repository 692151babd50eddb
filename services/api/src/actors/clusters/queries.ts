import type { Kysely } from 'kysely';
import { narrowDb } from '@filiere/platform';
import type { IdentityTables } from '../../identity/index.js';
import type { CooperativesTables } from '../cooperatives/tables.js';
import type { GrowersTables } from '../growers/tables.js';
import type { ClustersTables } from './tables.js';
import type { Candidate } from './domain/configuration.js';
import { identityUsers } from '../../identity/index.js';

/**
 * What the clusters area reads: its settings, identity's clusters, users and organisations,
 * and the `cooperatives` and `growers` rows (the cooperatives and growers areas own those
 * tables; this area reads them and moves their `cluster_id`, nothing else).
 */
type ClustersTablesRead = ClustersTables & IdentityTables & CooperativesTables & GrowersTables;
export type ClustersDb = Kysely<ClustersTablesRead>;
export const clustersDb = <DB extends ClustersTablesRead>(db: Kysely<DB>) =>
  narrowDb<ClustersTablesRead>()(db);

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
    .selectFrom(identityUsers().as('users'))
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
    .selectFrom(identityUsers().as('users'))
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
    .leftJoin(identityUsers().as('manager'), 'manager.id', 'cluster_settings.manager_user_id')
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
  const cooperatives = await db
    .selectFrom('cooperatives as c')
    .innerJoin('organizations as o', 'o.id', 'c.organization_id')
    .select(['c.organization_id as id', 'o.denomination as label', 'c.reference', 'c.cluster_id'])
    .where('c.deactivated_at', 'is', null)
    .where('c.cluster_id', '=', cluster.id)
    .orderBy('o.denomination')
    .orderBy('c.organization_id')
    .execute();
  const growers = await db
    .selectFrom('growers as g')
    .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')
    .select(['g.id', 'g.cluster_id', 'u.firstname', 'u.lastname', 'u.phone'])
    .where('g.deactivated_at', 'is', null)
    .where('g.cooperative_id', 'is', null)
    .where('g.cluster_id', '=', cluster.id)
    .orderBy('u.lastname')
    .orderBy('u.firstname')
    .orderBy('g.id')
    .execute();
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
    .selectFrom(identityUsers().as('users'))
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

/** The requested cooperatives (active), by organisation id, locked until the transaction ends. */
export async function cooperativeCandidates(
  db: ClustersDb,
  ids: readonly string[],
): Promise<Map<string, Candidate>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('cooperatives as c')
    .innerJoin('organizations as o', 'o.id', 'c.organization_id')
    .select(['c.organization_id as id', 'o.denomination as label', 'c.cluster_id'])
    .where('c.deactivated_at', 'is', null)
    .where('c.organization_id', 'in', [...ids])
    .forUpdate('c')
    .execute();
  return new Map(rows.map((r) => [r.id, { id: r.id, label: r.label, clusterId: r.cluster_id }]));
}

/** The requested growers (active), by id, locked until the transaction ends. */
export async function growerCandidates(
  db: ClustersDb,
  ids: readonly string[],
): Promise<Map<string, Candidate>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('growers as g')
    .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')
    .select(['g.id', 'u.firstname', 'u.lastname', 'g.cluster_id', 'g.cooperative_id'])
    .where('g.deactivated_at', 'is', null)
    .where('g.id', 'in', [...ids])
    .forUpdate('g')
    .execute();
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
    const moved = await db
      .updateTable('cooperatives')
      .set({ cluster_id: clusterId, updated_at: new Date() })
      .where('organization_id', 'in', [...cooperativeIds])
      .returning('user_id')
      .execute();
    userIds.push(...moved.map((r) => r.user_id));
    const members = await db
      .updateTable('growers')
      .set({ cluster_id: clusterId, updated_at: new Date() })
      .where('cooperative_id', 'in', [...cooperativeIds])
      .where('cluster_id', '!=', clusterId)
      .returning('user_id')
      .execute();
    userIds.push(...members.map((r) => r.user_id));
  }
  if (growerIds.length) {
    const moved = await db
      .updateTable('growers')
      .set({ cluster_id: clusterId, updated_at: new Date() })
      .where('id', 'in', [...growerIds])
      .returning('user_id')
      .execute();
    userIds.push(...moved.map((r) => r.user_id));
  }
  return [...new Set(userIds)];
}
