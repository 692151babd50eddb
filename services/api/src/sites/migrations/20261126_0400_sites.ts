import { sql, type Kysely } from 'kysely';

/**
 * An industrial's stores (the spec's user sites: label, address, latitude, longitude) and
 * coverage zones (name and polygon points as jsonb), each owned by one user. Coordinates are
 * numeric(10, 7): exactly the 7 decimals the forms keep, range-checked.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_sites')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('latitude', 'numeric(10, 7)', (c) =>
      c.notNull().check(sql`latitude between -90 and 90`),
    )
    .addColumn('longitude', 'numeric(10, 7)', (c) =>
      c.notNull().check(sql`longitude between -180 and 180`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('user_sites_user_idx')
    .on('user_sites')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('coverage_zones')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('coordinates', 'jsonb', (c) =>
      c
        .notNull()
        .check(sql`jsonb_typeof(coordinates) = 'array' and jsonb_array_length(coordinates) >= 3`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('coverage_zones_user_idx')
    .on('coverage_zones')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('coverage_zones').execute();
  await db.schema.dropTable('user_sites').execute();
}
