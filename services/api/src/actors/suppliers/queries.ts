import type { Kysely } from 'kysely';
import { narrowDb } from '@filiere/platform';
import { type IdentityTables, identityUsers, phoneOperator } from '../../identity/index.js';
import type { ListQuery, SupplierDto, SupplierListItem } from './schemas.js';
import type { SuppliersTables } from './tables.js';

/** What the suppliers area reads: its tables and identity's users and organisations. */
export type SuppliersDb = Kysely<SuppliersTables & IdentityTables>;
export const suppliersDb = <DB extends SuppliersTables & IdentityTables>(db: Kysely<DB>) =>
  narrowDb<SuppliersTables & IdentityTables>()(db);

const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const coordinate = (value: string | null) => (value === null ? null : Number(value));

/** A page of suppliers in `clusterId` (or every cluster), searched by name, phone, reference. */
export async function listSuppliers(
  db: SuppliersDb,
  query: ListQuery,
  clusterId: string | undefined,
): Promise<{ data: SupplierListItem[]; count: number }> {
  let base = db
    .selectFrom('input_suppliers as s')
    .innerJoin(identityUsers().as('u'), 'u.id', 's.user_id')
    .innerJoin('organizations as o', 'o.id', 's.organization_id')
    .where('s.deactivated_at', query.status === 'inactive' ? 'is not' : 'is', null);
  if (clusterId) base = base.where('s.cluster_id', '=', clusterId);
  if (query.q) {
    const pattern = like(query.q);
    const digits = query.q.replace(/\D/g, '');
    base = base.where((eb) =>
      eb.or([
        eb('u.lastname', 'ilike', pattern),
        eb('u.firstname', 'ilike', pattern),
        eb('o.denomination', 'ilike', pattern),
        eb('s.reference', 'ilike', pattern),
        ...(digits.length >= 3 ? [eb('u.phone', 'like', `%${digits}%`)] : []),
      ]),
    );
  }
  const [rows, total] = await Promise.all([
    base
      .select([
        's.id',
        's.reference',
        's.cluster_id',
        's.deactivated_at',
        'o.denomination',
        'u.id as user_id',
        'u.lastname',
        'u.firstname',
        'u.phone',
        'u.email',
      ])
      .orderBy('s.created_at', 'desc')
      .orderBy('s.id')
      .$if(query.limit > 0, (qb) => qb.limit(query.limit).offset((query.page - 1) * query.limit))
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    data: rows.map((r) => ({
      id: r.id,
      reference: r.reference,
      denomination: r.denomination,
      clusterId: r.cluster_id,
      isActive: r.deactivated_at === null,
      user: {
        id: r.user_id,
        lastname: r.lastname,
        firstname: r.firstname,
        phone: r.phone,
        email: r.email,
      },
    })),
    count: Number(total.n),
  };
}

/** The supplier with its delivery points and fertilizers, or undefined. */
export async function findSupplier(db: SuppliersDb, id: string): Promise<SupplierDto | undefined> {
  const row = await db
    .selectFrom('input_suppliers as s')
    .innerJoin(identityUsers().as('u'), 'u.id', 's.user_id')
    .innerJoin('organizations as o', 'o.id', 's.organization_id')
    .select([
      's.id',
      's.reference',
      's.organization_id',
      's.cluster_id',
      's.rccm',
      's.ifu',
      's.created_at',
      's.deactivated_at',
      'o.denomination',
      'u.id as user_id',
      'u.lastname',
      'u.firstname',
      'u.email',
      'u.nip',
      'u.phone',
      'u.bank_name',
      'u.bank_account_number',
      'u.momo_account_number',
    ])
    .where('s.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const [points, fertilizers] = await Promise.all([
    db
      .selectFrom('supplier_delivery_points')
      .select(['id', 'label', 'address', 'latitude', 'longitude'])
      .where('supplier_id', '=', id)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('supplier_fertilizers as sf')
      .innerJoin('fertilizers as f', 'f.id', 'sf.fertilizer_id')
      .innerJoin('fertilizer_types as t', 't.id', 'f.type_id')
      .select(['f.id', 'f.label', 't.id as type_id', 't.label as type_label'])
      .where('sf.supplier_id', '=', id)
      .orderBy('t.id')
      .orderBy('f.id')
      .execute(),
  ]);
  return {
    id: row.id,
    reference: row.reference,
    organizationId: row.organization_id,
    denomination: row.denomination,
    clusterId: row.cluster_id,
    isActive: row.deactivated_at === null,
    createdAt: new Date(row.created_at).toISOString(),
    user: {
      id: row.user_id,
      lastname: row.lastname,
      firstname: row.firstname,
      email: row.email,
      nip: row.nip,
      phone: row.phone,
      rccm: row.rccm,
      ifu: row.ifu,
    },
    locations: points.map((p) => ({
      id: p.id,
      label: p.label,
      address: p.address,
      latitude: coordinate(p.latitude),
      longitude: coordinate(p.longitude),
    })),
    fertilizers: fertilizers.map((f) => ({
      id: f.id,
      label: f.label,
      type: { id: f.type_id, label: f.type_label },
    })),
    accountInfo: { providerName: row.bank_name, accountNumber: row.bank_account_number },
    momoInfo: {
      providerName: row.momo_account_number ? phoneOperator(row.momo_account_number) : null,
      momoNumber: row.momo_account_number,
    },
  };
}

export const fertilizerTypes = (db: SuppliersDb) =>
  db.selectFrom('fertilizer_types').select(['id', 'code', 'label']).orderBy('id').execute();

export async function fertilizersOfType(db: SuppliersDb, typeId: number) {
  const rows = await db
    .selectFrom('fertilizers as f')
    .innerJoin('fertilizer_types as t', 't.id', 'f.type_id')
    .select(['f.id', 'f.label', 't.id as type_id', 't.label as type_label'])
    .where('f.type_id', '=', typeId)
    .orderBy('f.id')
    .execute();
  return rows.map((f) => ({
    id: f.id,
    label: f.label,
    type: { id: f.type_id, label: f.type_label },
  }));
}

/** The ids among `ids` that are no fertilizer of the catalogue. */
export async function unknownFertilizers(
  db: SuppliersDb,
  ids: readonly number[],
): Promise<number[]> {
  if (!ids.length) return [];
  const found = await db
    .selectFrom('fertilizers')
    .select('id')
    .where('id', 'in', [...ids])
    .execute();
  const known = new Set(found.map((f) => f.id));
  return [...new Set(ids)].filter((id) => !known.has(id));
}

export interface DeliveryPointValues {
  label: string;
  address: string;
  latitude?: number | null | undefined;
  longitude?: number | null | undefined;
}

/** Replaces the supplier's delivery points and/or fertilizers (inside the caller's transaction). */
export async function replaceDetails(
  db: SuppliersDb,
  supplierId: string,
  details: { locations?: DeliveryPointValues[]; fertilizerIds?: number[] },
): Promise<void> {
  if (details.locations) {
    await db.deleteFrom('supplier_delivery_points').where('supplier_id', '=', supplierId).execute();
    await db
      .insertInto('supplier_delivery_points')
      .values(
        details.locations.map((p, position) => ({
          supplier_id: supplierId,
          position,
          label: p.label,
          address: p.address,
          latitude: p.latitude ?? null,
          longitude: p.longitude ?? null,
        })),
      )
      .execute();
  }
  if (details.fertilizerIds) {
    await db.deleteFrom('supplier_fertilizers').where('supplier_id', '=', supplierId).execute();
    await db
      .insertInto('supplier_fertilizers')
      .values(
        [...new Set(details.fertilizerIds)].map((id) => ({
          supplier_id: supplierId,
          fertilizer_id: id,
        })),
      )
      .execute();
  }
}

/** Who sees a supplier of `clusterId` in a list: administrators, the cluster's manager and aggregator. */
export async function supplierWatchers(
  db: SuppliersDb,
  clusterId: string | null,
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
        ...(clusterId
          ? [
              eb.and([
                eb('u.cluster_id', '=', clusterId),
                eb('r.code', 'in', ['ROLE_CLUSTER_MANAGER', 'ROLE_INDUSTRIAL']),
              ]),
            ]
          : []),
      ]),
    )
    .execute();
  return rows.map((r) => r.id);
}
