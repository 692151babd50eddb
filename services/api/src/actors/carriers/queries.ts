import { sql, type Kysely } from 'kysely';
import { narrowDb } from '@filiere/platform';
import type { IdentityTables } from '../../identity/index.js';
import type { Scope } from '../cooperatives/domain/reach.js';
import { likePattern, momoOperator } from '../cooperatives/queries.js';
import type { CooperativesTables } from '../cooperatives/tables.js';
import type { CarrierDto, ListQuery } from './schemas.js';
import type { CarriersTables } from './tables.js';
import { identityUsers } from '../../identity/index.js';

export type CarriersDb = Kysely<CarriersTables & CooperativesTables & IdentityTables>;
export const carriersDb = narrowDb<CarriersTables & CooperativesTables & IdentityTables>();

function rows(db: CarriersDb) {
  return db
    .selectFrom('carriers as c')
    .innerJoin(identityUsers().as('u'), 'u.id', 'c.user_id')
    .select([
      'c.id',
      'c.reference',
      'c.user_id',
      'c.cluster_id',
      'c.organization_id',
      'c.address',
      'c.department_code',
      'c.commune_code',
      'c.arrondissement_code',
      'c.village_code',
      'c.created_at',
      'c.deactivated_at',
      'u.lastname',
      'u.firstname',
      'u.username',
      'u.nip',
      'u.phone',
      'u.email',
      'u.momo_account_number',
      'u.bank_name',
      'u.bank_account_number',
    ]);
}
type Row = Awaited<ReturnType<ReturnType<typeof rows>['execute']>>[number];

async function withCars(db: CarriersDb, found: Row[]): Promise<CarrierDto[]> {
  const ids = found.map((r) => r.id);
  const cars = ids.length
    ? await db
        .selectFrom('vehicles')
        .select(['id', 'carrier_id', 'car_type', 'registration', 'empty_weight', 'capacity'])
        .where('carrier_id', 'in', ids)
        .orderBy('created_at')
        .orderBy('registration')
        .execute()
    : [];
  return found.map((r) => ({
    id: r.id,
    reference: r.reference,
    userId: r.user_id,
    clusterId: r.cluster_id,
    organizationId: r.organization_id,
    isActive: r.deactivated_at === null,
    createdAt: r.created_at.toISOString(),
    user: {
      id: r.user_id,
      lastname: r.lastname,
      firstname: r.firstname,
      username: r.username,
      nip: r.nip,
      phone: r.phone,
      email: r.email,
      department: r.department_code,
      borough: r.commune_code,
      district: r.arrondissement_code,
      village: r.village_code,
    },
    carrier: { address: r.address },
    cars: cars
      .filter((c) => c.carrier_id === r.id)
      .map((c) => ({
        id: c.id,
        carType: c.car_type,
        registration: c.registration,
        emptyWeight: c.empty_weight,
        capacity: c.capacity,
      })),
    accountInfo: { providerName: r.bank_name, accountNumber: r.bank_account_number },
    momoInfo: {
      providerName: momoOperator(r.momo_account_number),
      momoNumber: r.momo_account_number,
    },
  }));
}

/** The carriers of `scope` (or of one organisation), searched, newest first. */
export async function listCarriers(
  db: CarriersDb,
  scope: Exclude<Scope, { kind: 'refused' }>,
  query: ListQuery,
  organizationId?: string,
): Promise<{ data: CarrierDto[]; count: number }> {
  let q = rows(db).where('c.deactivated_at', query.status === 'inactive' ? 'is not' : 'is', null);
  if (scope.kind === 'cluster') q = q.where('c.cluster_id', '=', scope.clusterId);
  if (organizationId) q = q.where('c.organization_id', '=', organizationId);
  if (query.q) {
    const like = likePattern(query.q);
    q = q.where((eb) =>
      eb.or([
        eb('u.lastname', 'ilike', like),
        eb('u.firstname', 'ilike', like),
        eb('u.phone', 'ilike', like),
        eb('c.reference', 'ilike', like),
        eb.exists(
          eb
            .selectFrom('vehicles as v')
            .select('v.id')
            .whereRef('v.carrier_id', '=', 'c.id')
            .where('v.registration', 'ilike', like),
        ),
      ]),
    );
  }
  const countRow = await q
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  let page = q.orderBy('c.created_at', 'desc').orderBy('c.id');
  if (query.limit !== -1) page = page.limit(query.limit).offset((query.page - 1) * query.limit);
  return { data: await withCars(db, await page.execute()), count: Number(countRow.n) };
}

export async function findCarrier(db: CarriersDb, id: string): Promise<CarrierDto | undefined> {
  const row = await rows(db).where('c.id', '=', id).executeTakeFirst();
  return row ? (await withCars(db, [row]))[0] : undefined;
}

/** For the download: the active carriers of the scope with their vehicles, one row each. */
export function carriersExportSql(scope: Exclude<Scope, { kind: 'refused' }>) {
  const where = scope.kind === 'cluster' ? sql`and c.cluster_id = ${scope.clusterId}` : sql``;
  return sql`select c.reference, u.lastname, u.firstname, u.phone, u.email, c.address,
      u.momo_account_number, u.bank_account_number, cl.label as cluster,
      (select count(*)::int from vehicles v where v.carrier_id = c.id) as vehicle_count,
      coalesce((select json_agg(json_build_object('carType', v.car_type, 'registration', v.registration,
        'capacity', v.capacity) order by v.created_at, v.registration)
        from vehicles v where v.carrier_id = c.id), '[]'::json) as vehicles
    from carriers c
    join ${identityUsers().as('u')} on u.id = c.user_id
    join clusters cl on cl.id = c.cluster_id
    where c.deactivated_at is null ${where}
    order by u.lastname, u.firstname, c.id`;
}
