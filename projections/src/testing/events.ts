import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * Test helpers: the `events` table of the engine contract (created here only
 * when the event store's migration has not created it) and a minimal append
 * that honours the contract (advisory lock, gap-free positions, versions,
 * NOTIFY on commit).
 */
export async function ensureEventsTable<DB>(db: Kysely<DB>): Promise<void> {
  await sql`create table if not exists public.events (
    position bigint primary key,
    stream_id text not null,
    version integer not null,
    type text not null,
    schema_version integer not null default 1,
    data jsonb not null,
    metadata jsonb not null,
    recorded_at timestamptz not null default now(),
    hash text not null,
    unique (stream_id, version)
  )`.execute(db);
}

export interface NewTestEvent {
  streamId: string;
  type: string;
  data?: unknown;
}

/** Appends events in one transaction; returns the new head position. */
export async function appendTestEvents<DB>(
  db: Kysely<DB>,
  events: NewTestEvent[],
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(7320001)`.execute(trx);
    const { rows } = await sql<{ head: number | null }>`
      select max(position) as head from public.events`.execute(trx);
    let position = Number(rows[0]?.head ?? 0);
    const versions = new Map<string, number>();
    const values = [];
    for (const event of events) {
      let version = versions.get(event.streamId);
      if (version === undefined) {
        const found = await sql<{ v: number | null }>`
          select max(version) as v from public.events where stream_id = ${event.streamId}`.execute(
          trx,
        );
        version = found.rows[0]?.v ?? 0;
      }
      version += 1;
      versions.set(event.streamId, version);
      position += 1;
      const data = JSON.stringify(event.data ?? {});
      const hash = createHash('sha256').update(`${position}${event.type}${data}`).digest('hex');
      values.push(
        sql`(${position}, ${event.streamId}, ${version}, ${event.type}, ${data}::jsonb, '{}'::jsonb, ${hash})`,
      );
    }
    if (values.length) {
      await sql`insert into public.events (position, stream_id, version, type, data, metadata, hash)
                values ${sql.join(values)}`.execute(trx);
      await sql`select pg_notify('filiere_events', ${String(position)})`.execute(trx);
    }
    return position;
  });
}
