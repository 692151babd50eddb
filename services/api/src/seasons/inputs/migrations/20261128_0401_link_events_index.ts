import { sql, type Kysely } from 'kysely';

/**
 * The inputs area reads a link's events from the log by `(data->>'linkId')::integer` (its
 * IndustrialAttached, and every InputProviderAssigned of the link, on each assignment and
 * delivery): without an index each read scanned the whole `events` table. A partial index on
 * those two event types only: other appends pay only the predicate's check. Built in the
 * migration's transaction (a short write lock on `events`; a partial index over two rare types
 * is quick to build).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index events_link_id_idx on events (type, ((data->>'linkId')::integer))
    where type in ('IndustrialAttached', 'InputProviderAssigned')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists events_link_id_idx`.execute(db);
}
