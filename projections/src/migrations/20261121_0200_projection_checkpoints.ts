import { sql, type Kysely } from 'kysely';

/** One row per projector: how far it has applied the event log, and its last failure. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('projection_checkpoints')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('position', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_error', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('projection_checkpoints').execute();
}
