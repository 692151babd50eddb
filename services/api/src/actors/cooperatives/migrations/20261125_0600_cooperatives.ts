import { sql, type Kysely } from 'kysely';

/**
 * Cooperatives (organisations paysannes): the detail row of an identity organisation of type
 * COOPERATIVE, keyed by that organisation's id, with its representative user
 * (ROLE_FARMER_ORGANIZATION, created through identity), its human reference `COOP-000001`
 * (a sequence), RCCM, IFU (exactly 13 digits), the cluster it belongs to (the reach of the
 * staff who see it) and a soft deactivation.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create sequence cooperative_reference_seq`.execute(db);
  await db.schema
    .createTable('cooperatives')
    .addColumn('organization_id', 'uuid', (c) => c.primaryKey().references('organizations.id'))
    .addColumn('reference', 'text', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`'COOP-' || lpad(nextval('cooperative_reference_seq')::text, 6, '0')`),
    )
    .addColumn('user_id', 'uuid', (c) => c.notNull().unique().references('users.id'))
    .addColumn('cluster_id', 'uuid', (c) => c.notNull().references('clusters.id'))
    .addColumn('rccm', 'text')
    .addColumn('ifu', 'text', (c) => c.notNull().check(sql`ifu ~ '^[0-9]{13}$'`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deactivated_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('cooperatives_cluster_idx')
    .on('cooperatives')
    .columns(['cluster_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cooperatives').execute();
  await sql`drop sequence cooperative_reference_seq`.execute(db);
}
