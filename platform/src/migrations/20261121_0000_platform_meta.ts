import { sql, type Kysely } from 'kysely';

/** Key-value facts about the installation (e.g. which demo-data steps have run). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('platform_meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('platform_meta').execute();
}
