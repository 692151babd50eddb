import { sql, type Kysely } from 'kysely';

/**
 * The fertilizer catalogue the seasons use (types such as Rejets, Engrais, Film
 * polyéthylène, and the fertilizers of each type), seeded here with fixed ids (seasons name
 * them by id), and the input suppliers (fournisseurs d'intrant): the detail row of an
 * identity organisation of type PROVIDER whose representative is a ROLE_INPUT_PROVIDER user
 * (created through identity's members), with its reference `FRN-000001` (a sequence), RCCM,
 * IFU (digits), cluster (the reach of the staff who see it) and soft deactivation; its
 * delivery points (label, address, coordinates with 7 decimals) and the fertilizers it
 * supplies.
 */
export const FERTILIZER_TYPES = [
  { id: 1, code: 'ENGRAIS', label: 'Engrais' },
  { id: 2, code: 'REJETS', label: 'Rejets' },
  { id: 3, code: 'FILM_POLYETHYLENE', label: 'Film polyéthylène' },
  { id: 4, code: 'TRAITEMENT', label: 'Produits de traitement' },
] as const;

export const FERTILIZERS = [
  { id: 1, type_id: 1, label: 'NPK 15-15-15' },
  { id: 2, type_id: 1, label: 'Urée 46 %' },
  { id: 3, type_id: 1, label: 'Sulfate de potassium' },
  { id: 4, type_id: 1, label: 'Chlorure de potassium' },
  { id: 5, type_id: 1, label: 'Engrais organique (compost)' },
  { id: 6, type_id: 2, label: 'Rejets de Cayenne lisse' },
  { id: 7, type_id: 2, label: 'Rejets de Pain de sucre' },
  { id: 8, type_id: 3, label: 'Film polyéthylène noir' },
  { id: 9, type_id: 4, label: 'Carbure de calcium (induction florale)' },
  { id: 10, type_id: 4, label: 'Éthéphon' },
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('fertilizer_types')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('label', 'text', (c) => c.notNull().unique())
    .execute();
  await db.schema
    .createTable('fertilizers')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('type_id', 'integer', (c) => c.notNull().references('fertilizer_types.id'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addUniqueConstraint('fertilizers_type_label_key', ['type_id', 'label'])
    .execute();
  await db
    .insertInto('fertilizer_types')
    .values([...FERTILIZER_TYPES])
    .execute();
  await db
    .insertInto('fertilizers')
    .values([...FERTILIZERS])
    .execute();

  await sql`create sequence input_supplier_reference_seq`.execute(db);
  await db.schema
    .createTable('input_suppliers')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('reference', 'text', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`'FRN-' || lpad(nextval('input_supplier_reference_seq')::text, 6, '0')`),
    )
    .addColumn('organization_id', 'uuid', (c) =>
      c.notNull().unique().references('organizations.id'),
    )
    .addColumn('user_id', 'uuid', (c) => c.notNull().unique().references('users.id'))
    .addColumn('cluster_id', 'uuid', (c) => c.references('clusters.id'))
    .addColumn('rccm', 'text', (c) => c.notNull())
    .addColumn('ifu', 'text', (c) => c.notNull().check(sql`ifu ~ '^[0-9]{1,20}$'`))
    .addColumn('created_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deactivated_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('input_suppliers_cluster_idx')
    .on('input_suppliers')
    .columns(['cluster_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('supplier_delivery_points')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('supplier_id', 'uuid', (c) =>
      c.notNull().references('input_suppliers.id').onDelete('cascade'),
    )
    /** The order the form lists them in. */
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('latitude', sql`numeric(10, 7)`, (c) => c.check(sql`latitude between -90 and 90`))
    .addColumn('longitude', sql`numeric(10, 7)`, (c) =>
      c.check(sql`longitude between -180 and 180`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('supplier_delivery_points_supplier_idx')
    .on('supplier_delivery_points')
    .column('supplier_id')
    .execute();

  await db.schema
    .createTable('supplier_fertilizers')
    .addColumn('supplier_id', 'uuid', (c) =>
      c.notNull().references('input_suppliers.id').onDelete('cascade'),
    )
    .addColumn('fertilizer_id', 'integer', (c) => c.notNull().references('fertilizers.id'))
    .addPrimaryKeyConstraint('supplier_fertilizers_pkey', ['supplier_id', 'fertilizer_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'supplier_fertilizers',
    'supplier_delivery_points',
    'input_suppliers',
    'fertilizers',
    'fertilizer_types',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await sql`drop sequence input_supplier_reference_seq`.execute(db);
}
