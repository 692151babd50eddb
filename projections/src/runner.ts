import type { Kysely } from 'kysely';
import { narrowDb } from '@filiere/platform';
import {
  ensureCheckpoint,
  lockCheckpoint,
  lockForBatch,
  recordFailure,
  saveCheckpoint,
  skipIrrelevant,
} from './checkpoints.js';
import { readEventsOfTypes, type EventDecoder, type RecordedEvent } from './events.js';
import type { Projector, PushMessage } from './projector.js';
import type { ProjectionTables } from './migrations/tables.js';

export type PushPublisher = (messages: PushMessage[]) => Promise<void>;

export interface RunOptions {
  /** Events read per transaction (default 500). */
  batchSize?: number;
  /** Receives the pushes of each batch after its commit. */
  publish?: PushPublisher;
  /** Turns a stored payload into the current shape (the event catalogue's decode). */
  decode?: EventDecoder | undefined;
}

export interface BatchResult {
  /** Events read (handled or skipped) in this batch. */
  read: number;
  position: number;
  caughtUp: boolean;
}

/** A projector stopped at an event it cannot apply. */
export class ProjectionFailure extends Error {
  constructor(
    readonly projector: string,
    readonly position: number,
    override readonly cause: unknown,
  ) {
    super(
      `Projector ${projector} failed at event ${position}: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
    this.name = 'ProjectionFailure';
  }
}

/** Calls the projector with the events it handles, on tables of `schema`. */
export async function applyEvents<DB extends ProjectionTables>(
  trx: Kysely<DB>,
  projector: Projector,
  events: RecordedEvent[],
  schema: string,
  pushes: PushMessage[],
  decode?: EventDecoder,
): Promise<void> {
  const handled = new Set(projector.eventTypes);
  let relevant = events.filter((e) => handled.has(e.type));
  if (!relevant.length) return;
  if (decode) relevant = relevant.map((e) => ({ ...e, data: decode(e) }));
  // The engine knows no projector's tables: it hands the transaction over erased.
  await projector.apply(narrowDb<object>()(trx.withSchema(schema)), relevant, {
    push: (m) => pushes.push(m),
  });
}

/**
 * One batch of a projector. First, without a transaction, one statement (skipIrrelevant) reads
 * its checkpoint, the head of the log and whether an event of the projector's types lies
 * between (one snapshot): with none, the same statement moves the checkpoint to that head by
 * compare-and-set (`where position = from`, so a runner or a rebuild that moved it meanwhile
 * wins) and no transaction is opened — most projectors handle none of most events (a transfer
 * concerns 3 of 12). The log
 * is a gap-free prefix in every snapshot (appends hold one advisory lock until they commit,
 * in position order), so every event up to a visible head is committed and none is skipped.
 *
 * Otherwise one transaction: lock the checkpoint, read the next events OF ITS TYPES (and the
 * head, in the same statement), apply them to the live tables and move the checkpoint (to the
 * head when fewer than `batchSize` were found, else to the last one read). Read rows and
 * checkpoint commit together, so an event is applied exactly once in effect, whoever crashes
 * when.
 */
export async function runBatch<DB extends ProjectionTables>(
  db: Kysely<DB>,
  projector: Projector,
  opts: RunOptions = {},
): Promise<BatchResult> {
  const limit = opts.batchSize ?? 500;
  const probe = await skipIrrelevant(db, projector);
  if (probe && !probe.relevant) {
    if (probe.head <= probe.from) return { read: 0, position: probe.from, caughtUp: true };
    // Moved by another runner meanwhile: the caller runs another batch from where it stands.
    return probe.moved
      ? { read: probe.head - probe.from, position: probe.head, caughtUp: true }
      : { read: 0, position: probe.from, caughtUp: false };
  }
  const pushes: PushMessage[] = [];
  const result = await db.transaction().execute(async (trx) => {
    // The row exists after the first run: create it only when missing (one statement less
    // per batch than ensuring it before every catch-up).
    let from = await lockForBatch(trx, projector.name);
    if (from === undefined) {
      await ensureCheckpoint(trx, projector.name);
      from = await lockCheckpoint(trx, projector.name);
    }
    const { head, events } = await readEventsOfTypes(trx, {
      after: from,
      limit,
      types: projector.eventTypes,
    });
    const last = events.at(-1);
    const to = events.length < limit ? Math.max(head, from) : last!.position;
    if (to === from) return { read: 0, position: from, caughtUp: true };
    if (last) {
      try {
        await applyEvents(trx, projector, events, 'public', pushes, opts.decode);
      } catch (error) {
        throw new ProjectionFailure(projector.name, events[0]!.position, error);
      }
    }
    await saveCheckpoint(trx, projector.name, to);
    return { read: to - from, position: to, caughtUp: events.length < limit };
  });
  if (pushes.length && opts.publish) await opts.publish(pushes);
  return result;
}

/**
 * Applies batches until the projector has read every committed event (or
 * `maxBatches` were run: then `caughtUp` is false and the caller re-schedules).
 * On a failing event, the events before it are committed one by one, the error
 * is stored on the checkpoint row and a ProjectionFailure naming the event's
 * position is thrown: the projector stays there until a retry succeeds.
 */
export async function catchUp<DB extends ProjectionTables>(
  db: Kysely<DB>,
  projector: Projector,
  opts: RunOptions & { maxBatches?: number } = {},
): Promise<BatchResult> {
  let total = 0;
  for (let batch = 0; ; batch++) {
    if (opts.maxBatches !== undefined && batch >= opts.maxBatches) {
      return { read: total, position: -1, caughtUp: false };
    }
    let result: BatchResult;
    try {
      result = await runBatch(db, projector, opts);
    } catch (error) {
      if (!(error instanceof ProjectionFailure)) throw error;
      const failure = await pinpointFailure(db, projector, opts, error);
      await ensureCheckpoint(db, projector.name)
        .then(() => recordFailure(db, projector.name, failure.message))
        .catch(() => undefined);
      throw failure;
    }
    total += result.read;
    if (result.caughtUp) return { ...result, read: total };
  }
}

/** Re-runs a failed batch event by event so that the projector stops exactly at the bad one. */
async function pinpointFailure<DB extends ProjectionTables>(
  db: Kysely<DB>,
  projector: Projector,
  opts: RunOptions,
  first: ProjectionFailure,
): Promise<ProjectionFailure> {
  if ((opts.batchSize ?? 500) === 1) return first;
  for (let i = 0; i < (opts.batchSize ?? 500); i++) {
    try {
      const result = await runBatch(db, projector, { ...opts, batchSize: 1 });
      if (result.caughtUp) return first;
    } catch (error) {
      return error instanceof ProjectionFailure ? error : first;
    }
  }
  return first;
}
