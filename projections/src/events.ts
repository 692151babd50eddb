import { sql, type Kysely } from 'kysely';
import type { EventCatalogue, RecordedEvent } from '@filiere/event-store';
import type { ProjectionTables } from './migrations/tables.js';

/**
 * Reading the event log (the `events` table of the engine contract). Kept as a
 * small adapter so the runner depends on the contract, not on how the event
 * store package builds its queries.
 */
export type { EventMetadata, RecordedEvent } from '@filiere/event-store';

/** Returns the payload a projector sees (e.g. upcast through the event catalogue). */
export type EventDecoder = (event: RecordedEvent) => unknown;

/** Events with after < position (≤ until when given), ascending, at most `limit`. */
export async function readEvents<DB extends ProjectionTables>(
  db: Kysely<DB>,
  opts: { after: number; limit: number; until?: number | undefined },
): Promise<RecordedEvent[]> {
  const until = opts.until ?? Number.MAX_SAFE_INTEGER;
  const { rows } = await sql<{
    position: number;
    stream_id: string;
    version: number;
    type: string;
    schema_version: number;
    data: unknown;
    metadata: RecordedEvent['metadata'];
    recorded_at: Date;
  }>`select position, stream_id, version, type, schema_version, data, metadata, recorded_at
     from public.events
     where position > ${opts.after} and position <= ${until}
     order by position
     limit ${opts.limit}`.execute(db);
  return rows.map((r) => ({
    position: r.position,
    streamId: r.stream_id,
    version: r.version,
    type: r.type,
    schemaVersion: r.schema_version,
    data: r.data,
    metadata: r.metadata,
    recordedAt: r.recorded_at,
  }));
}

/**
 * The head of the log and the events of `types` after `after` (ascending, at most `limit`), in
 * one statement, so one snapshot: every event up to that head is committed (the log is a
 * gap-free prefix), and the events of other types up to it can be skipped.
 */
export async function readEventsOfTypes<DB extends ProjectionTables>(
  db: Kysely<DB>,
  opts: { after: number; limit: number; types: string[] },
): Promise<{ head: number; events: RecordedEvent[] }> {
  const { rows } = await sql<{
    head: string | number;
    position: number | null;
    stream_id: string;
    version: number;
    type: string;
    schema_version: number;
    data: unknown;
    metadata: RecordedEvent['metadata'];
    recorded_at: Date;
  }>`select h.head, e.position, e.stream_id, e.version, e.type, e.schema_version, e.data,
            e.metadata, e.recorded_at
     from (select coalesce(max(position), 0) as head from public.events) h
     left join lateral (
       select position, stream_id, version, type, schema_version, data, metadata, recorded_at
       from public.events
       where position > ${opts.after} and type = any(${opts.types}::text[])
       order by position
       limit ${opts.limit}
     ) e on true
     order by e.position`.execute(db);
  const head = Number(rows[0]?.head ?? 0);
  const events = rows
    .filter((r) => r.position !== null)
    .map((r) => ({
      position: Number(r.position),
      streamId: r.stream_id,
      version: r.version,
      type: r.type,
      schemaVersion: r.schema_version,
      data: r.data,
      metadata: r.metadata,
      recordedAt: r.recorded_at,
    }));
  return { head, events };
}

/** The last committed position, 0 when the log is empty. */
export async function readHead<DB extends ProjectionTables>(db: Kysely<DB>): Promise<number> {
  const { rows } = await sql<{
    head: number | null;
  }>`select max(position) as head from public.events`.execute(db);
  return Number(rows[0]?.head ?? 0);
}

/**
 * Decodes (and upcasts) payloads through the given catalogue, the one built from the
 * modules (live projectors, rebuild and check all use it, so a replay reads what the live
 * system read). A type the catalogue does not know is an error (EventDecodeError), never
 * handed on as stored.
 */
export function catalogueDecoder(catalogue: EventCatalogue): EventDecoder {
  return (e) => catalogue.decode(e.position, e.type, e.schemaVersion, e.data);
}
