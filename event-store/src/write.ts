import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './schema/tables.js';
import { canonicalJson } from './canonical-json.js';
import { ConcurrencyError, StaleReadError, ValidationError } from './errors.js';
import { hash as digest } from 'node:crypto';
import { hashParts } from './hash.js';
import type { EventMetadata } from './types.js';

/** One row to append, already checked against the catalogue, with its stream version. */
export interface PendingEvent {
  streamId: string;
  version: number;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: EventMetadata;
}

/** An idempotency record written with the batch: its events are `offset .. offset+count-1`. */
export interface PendingCommandRecord {
  key: string;
  result: unknown;
  offset: number;
  count: number;
}

/** A key already recorded by a concurrent writer (the batch wrote nothing). */
export class IdempotencyKeyTakenError extends Error {
  constructor() {
    super('An idempotency key of the batch was recorded by another writer');
    this.name = 'IdempotencyKeyTakenError';
  }
}

/**
 * PostgreSQL refused a value of the rows (SQLSTATE class 22 data exception, such as a NUL
 * character or a lone UTF-16 surrogate in a jsonb string; class 23 other than a unique
 * violation; class 54, a value over a size limit): the statement failed as a whole, so
 * nothing was appended. It depends on the rows only, so the same rows fail again: the
 * pipeline writes a failed batch again without the command that carries such a value.
 */
export class UnstorableValueError extends ValidationError {
  constructor(cause: unknown) {
    super(
      'La demande contient une valeur qui ne peut pas être enregistrée (caractère nul ou caractère Unicode incomplet, par exemple).',
      { reason: 'UNSTORABLE_VALUE' },
    );
    this.cause = cause;
  }
}

/** An error answered by PostgreSQL for the values sent (see UnstorableValueError). */
export function isValueRejection(error: unknown): boolean {
  const { code, severity } = (error ?? {}) as { code?: unknown; severity?: unknown };
  if (typeof code !== 'string' || typeof severity !== 'string') return false;
  return /^(22|23|54)[0-9A-Z]{3}$/.test(code) && code !== '23505';
}

/**
 * The head a writer last saw (position and hash). With it, the hashes are
 * computed here and the database only checks the head is unchanged; without
 * it, or when another writer moved the head, the database chains them.
 */
export interface HeadHint {
  known?: { position: number; hash: string };
}

/**
 * Appends rows in one statement: `filiere_append_events` takes the advisory
 * lock, assigns the next positions, chains the hashes, inserts the rows and the
 * idempotency records, moves the head and notifies — all in the caller's
 * transaction (or its own, when `executor` is not in one). Returns the position
 * of the first row (the head before + 1). A version already taken raises
 * ConcurrencyError and nothing is appended.
 */
export async function writeEvents<DB extends EventStoreTables>(
  executor: Kysely<DB>,
  events: PendingEvent[],
  commands: PendingCommandRecord[] = [],
  hint: HeadHint = {},
): Promise<{ firstPosition: number; head: number }> {
  return writePrepared(executor, prepareEvents(events), commands, hint);
}

/** Rows turned into the statement's arrays (canonical JSON, hash texts): no I/O. */
export interface PreparedEvents {
  n: number;
  streamIds: string[];
  versions: number[];
  types: string[];
  schemaVersions: number[];
  data: string[];
  metadata: string[];
  prefixes: string[];
  suffixes: string[];
}

export function prepareEvents(events: PendingEvent[]): PreparedEvents {
  const n = events.length;
  const prepared: PreparedEvents = {
    n,
    streamIds: new Array<string>(n),
    versions: new Array<number>(n),
    types: new Array<string>(n),
    schemaVersions: new Array<number>(n),
    data: new Array<string>(n),
    metadata: new Array<string>(n),
    prefixes: new Array<string>(n),
    suffixes: new Array<string>(n),
  };
  // The rows of one command share their metadata object: its text is written once.
  let lastMetadata: unknown;
  let lastMetadataJson = '';
  for (let i = 0; i < n; i++) {
    const event = events[i]!;
    const dataJson = canonicalJson(event.data);
    if (event.metadata !== lastMetadata || i === 0) {
      lastMetadata = event.metadata;
      lastMetadataJson = canonicalJson(event.metadata);
    }
    const metadataJson = lastMetadataJson;
    const parts = hashParts({ ...event, dataJson, metadataJson });
    prepared.streamIds[i] = event.streamId;
    prepared.versions[i] = event.version;
    prepared.types[i] = event.type;
    prepared.schemaVersions[i] = event.schemaVersion;
    prepared.data[i] = dataJson;
    prepared.metadata[i] = metadataJson;
    prepared.prefixes[i] = parts.prefix;
    prepared.suffixes[i] = parts.suffix;
  }
  return prepared;
}

interface AppendRow {
  head: number | null;
  head_hash: string | null;
  stale_guards: string[] | null;
  stale_versions: (number | string)[] | null;
}

/** A read guard a decision rests on: its key and the version read (see StaleReadError). */
export interface ReadGuard {
  key: string;
  version: number;
}

/**
 * The I/O half of writeEvents. With `guards`, nothing is appended (StaleReadError) unless each
 * guard is still at the version given when the append takes its lock.
 */
export async function writePrepared<DB extends EventStoreTables>(
  executor: Kysely<DB>,
  prepared: PreparedEvents,
  commands: PendingCommandRecord[],
  hint: HeadHint = {},
  guards: readonly ReadGuard[] = [],
): Promise<{ firstPosition: number; head: number }> {
  const { n, streamIds, versions, types, schemaVersions, data, metadata, prefixes, suffixes } =
    prepared;
  const known = hint.known;
  let hashes: string[] | null = null;
  if (known) {
    hashes = new Array<string>(n);
    let previous = known.hash;
    for (let i = 0; i < n; i++) {
      const text = previous + prefixes[i]! + (known.position + i + 1) + suffixes[i]!;
      previous = digest('sha256', text, 'hex');
      hashes[i] = previous;
    }
  }
  // The payloads as one jsonb array each: their canonical texts joined, nothing to escape
  // (a text[] parameter is an array literal the driver builds by escaping every quote).
  const dataArray = `[${data.join(',')}]`;
  const metadataArray = `[${metadata.join(',')}]`;
  const call = (withHashes: boolean) =>
    sql<AppendRow>`
    select head, head_hash, stale_guards, stale_versions from filiere_append_events(
      ${streamIds}::text[], ${versions}::integer[], ${types}::text[], ${schemaVersions}::integer[],
      ${dataArray}::jsonb, ${metadataArray}::jsonb,
      ${withHashes ? null : prefixes}::text[], ${withHashes ? null : suffixes}::text[],
      ${commands.map((c) => c.key)}::text[], ${commands.map((c) => canonicalJson(c.result))}::text[],
      ${commands.map((c) => c.offset)}::integer[], ${commands.map((c) => c.count)}::integer[],
      ${withHashes ? known!.position : null}::bigint, ${withHashes ? known!.hash : null}::text,
      ${withHashes ? hashes : null}::text[],
      ${guards.length ? guards.map((g) => g.key) : null}::text[],
      ${guards.length ? guards.map((g) => g.version) : null}::bigint[]
    )`.execute(executor);
  let rows: AppendRow[];
  try {
    ({ rows } = await call(hashes !== null));
    // The head moved since this writer last saw it: nothing was appended; let the database hash.
    if (rows[0]!.head === null && !rows[0]!.stale_guards) ({ rows } = await call(false));
  } catch (error) {
    hint.known = undefined;
    throw mapWriteError(error);
  }
  const { stale_guards: stale, stale_versions: staleVersions } = rows[0]!;
  if (stale) {
    throw new StaleReadError(stale.map((key, i) => ({ key, version: Number(staleVersions![i]) })));
  }
  const head = Number(rows[0]!.head);
  if (!hint.known || hint.known.position < head) {
    hint.known = { position: head, hash: rows[0]!.head_hash! };
  }
  return { firstPosition: head - n + 1, head };
}

function mapWriteError(error: unknown): unknown {
  if (isValueRejection(error)) return new UnstorableValueError(error);
  const pgError = error as { code?: string; constraint?: string };
  if (pgError.code !== '23505') return error;
  if (pgError.constraint === 'commands_pkey') return new IdempotencyKeyTakenError();
  return new ConcurrencyError('Le flux a été modifié entre-temps ; réessayez.', {
    reason: 'STREAM_VERSION_CONFLICT',
  });
}
