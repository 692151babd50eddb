import { sql, type Kysely } from 'kysely';

/**
 * Carriers (transporteurs): the detail row of a ROLE_CARRIER user (created through identity)
 * with its human reference `TRP-000001` (a sequence), address and location codes, cluster
 * (the reach of the staff who see it), optional organisation, soft deactivation; and their
 * vehicles (type of the spec's list, registration unique across carriers, weights in Kg).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create sequence carrier_reference_seq`.execute(db);
  await db.schema
    .createTable('carriers')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('reference', 'text', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`'TRP-' || lpad(nextval('carrier_reference_seq')::text, 6, '0')`),
    )
    .addColumn('user_id', 'uuid', (c) => c.notNull().unique().references('users.id'))
    .addColumn('cluster_id', 'uuid', (c) => c.notNull().references('clusters.id'))
    .addColumn('organization_id', 'uuid', (c) => c.references('organizations.id'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('department_code', 'text', (c) => c.notNull())
    .addColumn('commune_code', 'text', (c) => c.notNull())
    .addColumn('arrondissement_code', 'text', (c) => c.notNull())
    .addColumn('village_code', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deactivated_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('carriers_cluster_idx')
    .on('carriers')
    .columns(['cluster_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('carriers_organization_idx')
    .on('carriers')
    .column('organization_id')
    .execute();

  const types = sql.join(
    ['BACHEE', 'TERCEL', 'VOITURE_4_ROUES', 'CAMIONNETTE', 'TRICYCLE', 'PICK_UP', 'CAMION'].map(
      (t) => sql.lit(t),
    ),
  );
  await db.schema
    .createTable('vehicles')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('carrier_id', 'uuid', (c) =>
      c.notNull().references('carriers.id').onDelete('cascade'),
    )
    .addColumn('car_type', 'text', (c) => c.notNull().check(sql`car_type in (${types})`))
    .addColumn('registration', 'text', (c) => c.notNull())
    .addColumn('empty_weight', 'integer', (c) => c.check(sql`empty_weight >= 0`))
    .addColumn('capacity', 'integer', (c) => c.notNull().check(sql`capacity > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('vehicles_registration_unique')
    .on('vehicles')
    .column('registration')
    .unique()
    .execute();
  await db.schema.createIndex('vehicles_carrier_idx').on('vehicles').column('carrier_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('vehicles').execute();
  await db.schema.dropTable('carriers').execute();
  await sql`drop sequence carrier_reference_seq`.execute(db);
}
