import { sql, type Kysely } from 'kysely';

/**
 * `messaging_checkpoints`: how far in the event log each of messaging's followers has
 * written its messages (the grower messages' follower: `grower-messages`). Moving it back
 * replays the log and writes nothing twice (each message's `dedupe_key` is its event's
 * position and its kind).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('messaging_checkpoints')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('position', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('messaging_checkpoints').execute();
}
