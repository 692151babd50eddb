import { sql, type Kysely } from 'kysely';
import { narrowDb } from '@filiere/platform';
import type { IdentityTables } from '../../identity/index.js';
import type { Scope } from './domain/reach.js';
import type { CooperativeDto, ListQuery } from './schemas.js';
import type { CooperativesTables } from './tables.js';
import { identityUsers } from '../../identity/index.js';

export type CooperativesDb = Kysely<CooperativesTables & IdentityTables>;
export const cooperativesDb = narrowDb<CooperativesTables & IdentityTables>();

/** `%q%` for ILIKE, with the pattern characters escaped. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const MOOV_PREFIXES = new Set(['55', '58', '64', '65', '68', '95', '98', '99']);
/** MOOV or MTN from the number (spec §4: digits 4 and 5 of the former 8, after `+22901`). */
export const momoOperator = (e164: string | null) =>
  e164 === null ? null : MOOV_PREFIXES.has(e164.slice(6, 8)) ? 'MOOV' : 'MTN';

function base(db: CooperativesDb) {
  return db
    .selectFrom('cooperatives as c')
    .innerJoin('organizations as o', 'o.id', 'c.organization_id')
    .innerJoin(identityUsers().as('u'), 'u.id', 'c.user_id');
}

function rows(db: CooperativesDb) {
  return base(db).select([
    'c.organization_id as id',
    'c.reference',
    'o.denomination as label',
    'c.user_id',
    'c.cluster_id',
    'c.rccm',
    'c.ifu',
    'c.created_at',
    'c.deactivated_at',
    'u.lastname',
    'u.firstname',
    'u.nip',
    'u.phone',
    'u.email',
    'u.momo_account_number',
    'u.bank_account_number',
    'u.bank_name',
  ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof rows>['execute']>>[number];

export function toDto(r: Row): CooperativeDto {
  return {
    id: r.id,
    reference: r.reference,
    label: r.label,
    userId: r.user_id,
    clusterId: r.cluster_id,
    isActive: r.deactivated_at === null,
    createdAt: r.created_at.toISOString(),
    user: {
      id: r.user_id,
      lastname: r.lastname,
      firstname: r.firstname,
      nip: r.nip,
      phone: r.phone,
      email: r.email,
      rccm: r.rccm,
      ifu: r.ifu,
    },
    accountInfo: { providerName: r.bank_name, accountNumber: r.bank_account_number },
    momoInfo: {
      providerName: momoOperator(r.momo_account_number),
      momoNumber: r.momo_account_number,
    },
  };
}

/** The cooperatives of `scope` (optionally of one cluster), searched, newest first. */
export async function listCooperatives(
  db: CooperativesDb,
  scope: Exclude<Scope, { kind: 'refused' }>,
  query: ListQuery,
  clusterId?: string,
): Promise<{ data: CooperativeDto[]; count: number }> {
  let q = rows(db).where('c.deactivated_at', query.status === 'inactive' ? 'is not' : 'is', null);
  if (scope.kind === 'cluster') q = q.where('c.cluster_id', '=', scope.clusterId);
  if (clusterId) q = q.where('c.cluster_id', '=', clusterId);
  if (query.q) {
    const like = likePattern(query.q);
    q = q.where((eb) =>
      eb.or([
        eb('o.denomination', 'ilike', like),
        eb('u.lastname', 'ilike', like),
        eb('u.firstname', 'ilike', like),
        eb('u.phone', 'ilike', like),
        eb('c.reference', 'ilike', like),
      ]),
    );
  }
  const countRow = await q
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  let page = q.orderBy('c.created_at', 'desc').orderBy('c.organization_id');
  if (query.limit !== -1) page = page.limit(query.limit).offset((query.page - 1) * query.limit);
  const found = await page.execute();
  return { data: found.map(toDto), count: Number(countRow.n) };
}

export async function findCooperative(
  db: CooperativesDb,
  organizationId: string,
): Promise<CooperativeDto | undefined> {
  const row = await rows(db).where('c.organization_id', '=', organizationId).executeTakeFirst();
  return row && toDto(row);
}

/** An organisation, whatever its type, with the cluster of its cooperative row if any. */
export async function findOrganization(db: CooperativesDb, organizationId: string) {
  return db
    .selectFrom('organizations as o')
    .leftJoin('cooperatives as c', 'c.organization_id', 'o.id')
    .select(['o.id', 'o.denomination', 'o.organization_type', 'c.cluster_id'])
    .where('o.id', '=', organizationId)
    .executeTakeFirst();
}

/** The users of an organisation (not deleted), for `organization/{id}/users`. */
export async function organizationUsers(
  db: CooperativesDb,
  organizationId: string,
  query: ListQuery,
) {
  let q = db
    .selectFrom(identityUsers().as('u'))
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .where('u.organization_id', '=', organizationId)
    .where('u.deleted_at', 'is', null);
  if (query.q) {
    const like = likePattern(query.q);
    q = q.where((eb) =>
      eb.or([
        eb('u.lastname', 'ilike', like),
        eb('u.firstname', 'ilike', like),
        eb('u.phone', 'ilike', like),
      ]),
    );
  }
  const countRow = await q
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  let page = q
    .select([
      'u.id',
      'u.firstname',
      'u.lastname',
      'u.email',
      'u.phone',
      'u.is_active',
      'r.id as role_id',
      'r.code as role_code',
      'r.name as role_name',
    ])
    .orderBy('u.lastname')
    .orderBy('u.id');
  if (query.limit !== -1) page = page.limit(query.limit).offset((query.page - 1) * query.limit);
  const found = await page.execute();
  return {
    data: found.map((u) => ({
      id: u.id,
      firstname: u.firstname,
      lastname: u.lastname,
      email: u.email,
      phone: u.phone,
      isActive: u.is_active,
      roleId: u.role_id,
      role: { id: u.role_id, code: u.role_code, name: u.role_name },
    })),
    count: Number(countRow.n),
  };
}

/** For the download: every cooperative of the scope, as an SQL query (streamed by cursor). */
export function cooperativesExportSql(scope: Exclude<Scope, { kind: 'refused' }>) {
  const where = scope.kind === 'cluster' ? sql`and c.cluster_id = ${scope.clusterId}` : sql``;
  return sql`select c.reference, o.denomination, u.lastname, u.firstname, u.phone, u.email,
      c.rccm, c.ifu, u.momo_account_number, u.bank_account_number, cl.label as cluster
    from cooperatives c
    join organizations o on o.id = c.organization_id
    join ${identityUsers().as('u')} on u.id = c.user_id
    join clusters cl on cl.id = c.cluster_id
    where c.deactivated_at is null ${where}
    order by o.denomination, c.organization_id`;
}
