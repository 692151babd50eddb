import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './schema/tables.js';
import type { EventCatalogue } from './catalogue.js';
import type { EventMetadata, RecordedEvent } from './types.js';

interface EventRow {
  position: number;
  stream_id: string;
  version: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
  hash: string;
}

export type StoredEvent = RecordedEvent & { hash: string };

function toStored(row: EventRow): StoredEvent {
  return {
    position: Number(row.position),
    streamId: row.stream_id,
    version: row.version,
    type: row.type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at,
    hash: row.hash,
  };
}

function decoded(event: StoredEvent, catalogue: EventCatalogue): RecordedEvent {
  const data = catalogue.decode(event.position, event.type, event.schemaVersion, event.data);
  return {
    position: event.position,
    streamId: event.streamId,
    version: event.version,
    type: event.type,
    schemaVersion: event.schemaVersion,
    data,
    metadata: event.metadata,
    recordedAt: event.recordedAt,
  };
}

/** Stored rows with position > after, ascending, as stored (no catalogue): for audits. */
export async function readAllRaw<DB extends EventStoreTables>(
  db: Kysely<DB>,
  opts: { after: number; limit: number },
): Promise<StoredEvent[]> {
  const { rows } = await sql<EventRow>`
    select position, stream_id, version, type, schema_version, data, metadata, recorded_at, hash
    from events where position > ${opts.after} order by position limit ${opts.limit}`.execute(db);
  return rows.map(toStored);
}

/**
 * Events with position > after, ascending, at most limit, decoded through the
 * catalogue. Positions become visible in order (see docs/event-store.md), so a
 * reader that keeps the last position it saw never skips a late commit.
 */
export async function readAll<DB extends EventStoreTables>(
  db: Kysely<DB>,
  opts: { after: number; limit: number; catalogue: EventCatalogue },
): Promise<RecordedEvent[]> {
  const rows = await readAllRaw(db, opts);
  return rows.map((row) => decoded(row, opts.catalogue));
}

/** A stream's events with version > afterVersion (default 0: all), ascending. */
export async function readStream<DB extends EventStoreTables>(
  db: Kysely<DB>,
  streamId: string,
  opts: { afterVersion?: number; catalogue: EventCatalogue },
): Promise<RecordedEvent[]> {
  const { rows } = await sql<EventRow>`
    select position, stream_id, version, type, schema_version, data, metadata, recorded_at, hash
    from events where stream_id = ${streamId} and version > ${opts.afterVersion ?? 0}
    order by version`.execute(db);
  return rows.map((row) => decoded(toStored(row), opts.catalogue));
}

/**
 * Events of several streams (each ordered by version), decoded; used to load states.
 * With `afterVersions`, a stream listed there yields only its events past that version
 * (to bring a known state up to date); the others yield all their events.
 */
export async function readStreams<DB extends EventStoreTables>(
  db: Kysely<DB>,
  streamIds: string[],
  catalogue: EventCatalogue,
  afterVersions?: ReadonlyMap<string, number>,
): Promise<Map<string, RecordedEvent[]>> {
  const result = new Map<string, RecordedEvent[]>(streamIds.map((id) => [id, []]));
  if (streamIds.length === 0) return result;
  const { rows } = afterVersions?.size
    ? await sql<EventRow>`
    select e.position, e.stream_id, e.version, e.type, e.schema_version, e.data, e.metadata,
           e.recorded_at, e.hash
    from unnest(${streamIds}::text[], ${streamIds.map((id) => afterVersions.get(id) ?? 0)}::integer[])
         as s(stream_id, after)
    join events e on e.stream_id = s.stream_id and e.version > s.after
    order by e.stream_id, e.version`.execute(db)
    : await sql<EventRow>`
    select position, stream_id, version, type, schema_version, data, metadata, recorded_at, hash
    from events where stream_id = any(${streamIds}::text[])
    order by stream_id, version`.execute(db);
  for (const row of rows) result.get(row.stream_id)!.push(decoded(toStored(row), catalogue));
  return result;
}

/** Current version of each stream (0 when it has no event). */
export async function streamVersions<DB extends EventStoreTables>(
  db: Kysely<DB>,
  streamIds: string[],
): Promise<Map<string, number>> {
  const result = new Map<string, number>(streamIds.map((id) => [id, 0]));
  if (streamIds.length === 0) return result;
  const { rows } = await sql<{ stream_id: string; version: number }>`
    select stream_id, max(version) as version from events
    where stream_id = any(${streamIds}::text[]) group by stream_id`.execute(db);
  for (const row of rows) result.set(row.stream_id, Number(row.version));
  return result;
}

/** Current versions of read guards (0 for a key never bumped). */
export async function guardVersions<DB extends EventStoreTables>(
  db: Kysely<DB>,
  keys: string[],
): Promise<Map<string, number>> {
  const result = new Map<string, number>(keys.map((key) => [key, 0]));
  if (keys.length === 0) return result;
  const { rows } = await sql<{ key: string; version: number }>`
    select key, version from read_guards where key = any(${keys}::text[])`.execute(db);
  for (const row of rows) result.set(row.key, Number(row.version));
  return result;
}

/** Position of the last committed event; 0 when the log is empty. */
export async function headPosition<DB extends EventStoreTables>(db: Kysely<DB>): Promise<number> {
  const { rows } = await sql<{ position: number }>`
    select coalesce(max(position), 0) as position from events`.execute(db);
  return Number(rows[0]!.position);
}
