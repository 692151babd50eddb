import type { Kysely } from 'kysely';
import type { EventStoreTables } from './schema/tables.js';
import type { EventCatalogue } from './catalogue.js';
import { ConcurrencyError } from './errors.js';
import { findCommands } from './idempotency.js';
import { streamVersions } from './read.js';
import type { EventMetadata, StreamWrite } from './types.js';
import {
  IdempotencyKeyTakenError,
  writeEvents,
  type HeadHint,
  type PendingEvent,
} from './write.js';

export interface AppendOptions {
  /** A key seen before returns the first result and appends nothing. */
  idempotencyKey?: string;
  metadata?: EventMetadata;
  catalogue: EventCatalogue;
  /** Attempts when every write expects `any` and another writer takes a version first. */
  maxAttempts?: number;
  /** The head this writer last saw, to hash in JavaScript (see writeEvents). */
  headHint?: HeadHint;
}

export interface AppendResult {
  /** Positions of the appended events, in the order of the writes and their events. */
  positions: number[];
  /** Version of each written stream after the append. */
  nextVersions: Record<string, number>;
  /** True when the idempotency key had been seen: nothing was appended. */
  duplicate: boolean;
}

/**
 * Appends one or several stream writes in ONE transaction (a transfer writes
 * two wallet streams at once). A stream not at its expected version raises
 * ConcurrencyError and nothing is appended.
 */
export async function append<DB extends EventStoreTables>(
  db: Kysely<DB>,
  writes: StreamWrite[],
  options: AppendOptions,
): Promise<AppendResult> {
  const catalogue = options.catalogue;
  const key = options.idempotencyKey;
  const ids = writes.map((w) => w.streamId);
  if (new Set(ids).size !== ids.length) throw new Error('append: a stream appears twice');
  const encoded = writes.map((w) =>
    w.events.map((e) => ({ type: e.type, ...catalogue.encode(e) })),
  );
  const metadata: EventMetadata = { ...options.metadata };
  if (key && !metadata.commandId) metadata.commandId = key;
  const maxAttempts = writes.every((w) => w.expectedVersion === 'any')
    ? (options.maxAttempts ?? 10)
    : 1;

  for (let attempt = 1; ; attempt++) {
    if (key) {
      const seen = (await findCommands(db, [key])).get(key);
      if (seen) {
        const { nextVersions } = seen.result as Pick<AppendResult, 'nextVersions'>;
        return { positions: seen.positions, nextVersions, duplicate: true };
      }
    }
    const current = await streamVersions(db, ids);
    const rows: PendingEvent[] = [];
    const nextVersions: Record<string, number> = {};
    writes.forEach((write, i) => {
      const version = current.get(write.streamId)!;
      const expected = write.expectedVersion === 'noStream' ? 0 : write.expectedVersion;
      if (expected !== 'any' && expected !== version) {
        throw new ConcurrencyError('Le flux a été modifié entre-temps ; réessayez.', {
          reason: 'STREAM_VERSION_CONFLICT',
          streamId: write.streamId,
          expectedVersion: expected,
          actualVersion: version,
        });
      }
      encoded[i]!.forEach((event, j) => {
        rows.push({ streamId: write.streamId, version: version + j + 1, ...event, metadata });
      });
      nextVersions[write.streamId] = version + encoded[i]!.length;
    });
    const positionsOf = (first: number) => rows.map((_, i) => first + i);
    try {
      // A retry gets back the stored result; the database records the positions.
      const records = key ? [{ key, result: { nextVersions }, offset: 0, count: rows.length }] : [];
      const { firstPosition } = await writeEvents(db, rows, records, options.headHint);
      return { positions: positionsOf(firstPosition), nextVersions, duplicate: false };
    } catch (error) {
      if (error instanceof IdempotencyKeyTakenError) continue;
      if (error instanceof ConcurrencyError && attempt < maxAttempts) continue;
      throw error;
    }
  }
}
