import { sql, type Kysely } from 'kysely';
import { narrowDb } from '@filiere/platform';
import type { EventDecoder, RecordedEvent } from './events.js';
import type { Projector, PushMessage } from './projector.js';
import type { ProjectionTables } from './migrations/tables.js';
import { ProjectionFailure } from './runner.js';

/** What one group batch did. */
export interface GroupBatchResult {
  /** Positions passed by the group (handled or skipped), from its lowest checkpoint. */
  read: number;
  /** Where every member's checkpoint stands after the batch. */
  position: number;
  caughtUp: boolean;
}

export interface GroupOptions {
  /** Events read per transaction (default 500), of any member's types. */
  batchSize?: number;
  /** Receives the batch's pushes after its commit. */
  publish?: (messages: PushMessage[]) => Promise<void>;
  /** Turns a stored payload into the current shape (the event catalogue's decode). */
  decode?: EventDecoder | undefined;
  /** Awaited before each batch of a catch-up (the background thread yields to a contract run). */
  beforeBatch?: () => Promise<void>;
}

/**
 * One batch of SEVERAL projectors in one transaction: their checkpoint rows locked in one
 * statement (in name order, so two groups never wait on each other in a cycle), the events
 * after the lowest checkpoint of any member's types read ONCE with the head, decoded ONCE,
 * each member applying the events past its own checkpoint of its types, in the members' order,
 * then every checkpoint moved in one statement — all committed together (asynchronously, as a
 * single projector's batch: `lockForBatch`).
 *
 * Why: each projector's batch was its own transaction of four statements plus its writes, and
 * read and decoded the events it shares with the others (a wallet event is read by five of
 * them). The group reads each event once and commits once; exactly-once is unchanged, since
 * each member's rows and checkpoint still commit together under its locked row.
 *
 * A member that throws fails the whole batch (nothing is committed): the caller runs the
 * members alone (`catchUp`), which stops the failing one exactly at its bad event and records
 * the error, while the others go on.
 */
export async function runGroupBatch<DB extends ProjectionTables>(
  db: Kysely<DB>,
  members: readonly Projector[],
  opts: GroupOptions = {},
): Promise<GroupBatchResult> {
  const limit = opts.batchSize ?? 500;
  const names = members.map((p) => p.name);
  const types = [...new Set(members.flatMap((p) => p.eventTypes))];
  const pushes: PushMessage[] = [];
  const result = await db.transaction().execute(async (trx) => {
    const locked = await sql<{ name: string; position: string | number }>`
      select name, position, set_config('synchronous_commit', 'off', true) as commit_mode
      from public.projection_checkpoints where name = any(${names}::text[])
      order by name for update`.execute(trx);
    if (locked.rows.length !== members.length) {
      const found = new Set(locked.rows.map((r) => r.name));
      throw new Error(
        `No checkpoint row for projector(s) ${names.filter((n) => !found.has(n)).join(', ')}`,
      );
    }
    const fromOf = new Map(locked.rows.map((r) => [r.name, Number(r.position)]));
    const from = Math.min(...fromOf.values());
    const { rows } = await sql<{
      head: string | number;
      position: string | number | null;
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
         where position > ${from} and type = any(${types}::text[])
         order by position
         limit ${limit}
       ) e on true
       order by e.position`.execute(trx);
    const head = Number(rows[0]?.head ?? 0);
    const events: RecordedEvent[] = [];
    for (const r of rows) {
      if (r.position === null) continue;
      const event: RecordedEvent = {
        position: Number(r.position),
        streamId: r.stream_id,
        version: r.version,
        type: r.type,
        schemaVersion: r.schema_version,
        data: r.data,
        metadata: r.metadata,
        recordedAt: r.recorded_at,
      };
      if (opts.decode) event.data = decodeOrFail(opts.decode, event, members);
      events.push(event);
    }
    const to = events.length < limit ? Math.max(head, from) : events.at(-1)!.position;
    if (to === from) return { read: 0, position: from, caughtUp: true };
    const ctx = { push: (m: PushMessage) => pushes.push(m) };
    const scoped = narrowDb<object>()(trx.withSchema('public'));
    for (const projector of members) {
      const after = fromOf.get(projector.name)!;
      const handled = new Set(projector.eventTypes);
      const mine = events.filter((e) => e.position > after && handled.has(e.type));
      if (!mine.length) continue;
      try {
        await projector.apply(scoped, mine, ctx);
      } catch (error) {
        throw new ProjectionFailure(projector.name, mine[0]!.position, error);
      }
    }
    const moved = members.filter((p) => fromOf.get(p.name)! < to).map((p) => p.name);
    if (moved.length) {
      await sql`update public.projection_checkpoints
                set position = ${to}, updated_at = now(), last_error = null
                where name = any(${moved}::text[])`.execute(trx);
    }
    return { read: to - from, position: to, caughtUp: events.length < limit };
  });
  if (pushes.length && opts.publish) await opts.publish(pushes);
  return result;
}

/** Decodes an event for the group; a failure is the first member's that handles its type. */
function decodeOrFail(
  decode: EventDecoder,
  event: RecordedEvent,
  members: readonly Projector[],
): unknown {
  try {
    return decode(event);
  } catch (error) {
    const owner = members.find((p) => p.eventTypes.includes(event.type)) ?? members[0]!;
    throw new ProjectionFailure(owner.name, event.position, error);
  }
}

/** Runs group batches until every member has read every committed event (or maxBatches). */
export async function catchUpGroup<DB extends ProjectionTables>(
  db: Kysely<DB>,
  members: readonly Projector[],
  opts: GroupOptions & { maxBatches?: number } = {},
): Promise<GroupBatchResult> {
  let total = 0;
  for (let batch = 0; ; batch++) {
    if (opts.maxBatches !== undefined && batch >= opts.maxBatches) {
      return { read: total, position: -1, caughtUp: false };
    }
    await opts.beforeBatch?.();
    const result = await runGroupBatch(db, members, opts);
    total += result.read;
    if (result.caughtUp) return { ...result, read: total };
  }
}
