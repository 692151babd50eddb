import { sql, type Kysely } from 'kysely';
import { defineProjector, type Projector } from '../projector.js';

/** The counting projector's tables, whatever their prefix. */
interface CountingTables {
  [applied: `${string}_applied`]: { position: number; stream_id: string };
  [counts: `${string}_counts`]: { stream_id: string; n: number };
}

/**
 * A projector for tests and benchmarks: one row per handled event in
 * `<prefix>_applied` (primary key = position, so applying an event twice
 * fails loudly) and a count per stream in `<prefix>_counts`.
 */
export function countingProjector(
  prefix: string,
  opts: {
    eventTypes?: string[];
    pushTo?: (streamId: string) => string | undefined;
    failOn?: (data: unknown) => boolean;
  } = {},
): Projector {
  const applied = `${prefix}_applied` as const;
  const counts = `${prefix}_counts` as const;
  return defineProjector<CountingTables>({
    name: prefix,
    eventTypes: opts.eventTypes ?? ['Counted'],
    tables: [applied, counts],
    async apply(trx, events, ctx) {
      for (const e of events) {
        if (opts.failOn?.(e.data)) throw new Error(`refused event ${e.position}`);
      }
      // unnest: two array parameters instead of two per row (fast for big rebuild batches).
      await trx
        .insertInto(applied)
        .columns(['position', 'stream_id'])
        .expression(
          sql`select * from unnest(${events.map((e) => e.position)}::bigint[], ${events.map((e) => e.streamId)}::text[])`,
        )
        .execute();
      const perStream = new Map<string, number>();
      for (const e of events) perStream.set(e.streamId, (perStream.get(e.streamId) ?? 0) + 1);
      await trx
        .insertInto(counts)
        .columns(['stream_id', 'n'])
        .expression(
          sql`select * from unnest(${[...perStream.keys()]}::text[], ${[...perStream.values()]}::int[])`,
        )
        .onConflict((oc) =>
          oc.column('stream_id').doUpdateSet({ n: sql`${sql.ref(`${counts}.n`)} + excluded.n` }),
        )
        .execute();
      if (opts.pushTo) {
        for (const streamId of perStream.keys()) {
          const userId = opts.pushTo(streamId);
          if (userId) ctx.push({ type: 'counted', userIds: [userId], data: { streamId } });
        }
      }
    },
  });
}

export async function createCountingTables<DB>(db: Kysely<DB>, prefix: string): Promise<void> {
  await sql`create table if not exists ${sql.id(`${prefix}_applied`)} (
    position bigint primary key, stream_id text not null)`.execute(db);
  await sql`create table if not exists ${sql.id(`${prefix}_counts`)} (
    stream_id text primary key, n integer not null)`.execute(db);
  await sql`create index if not exists ${sql.id(`${prefix}_applied_stream`)}
    on ${sql.id(`${prefix}_applied`)} (stream_id)`.execute(db);
}

/** Rows of both tables, sorted, for equality assertions. */
export async function snapshotCounting<DB>(db: Kysely<DB>, prefix: string) {
  const applied = await sql<{ position: number; stream_id: string }>`
    select position, stream_id from ${sql.id(`${prefix}_applied`)} order by position`.execute(db);
  const counts = await sql<{ stream_id: string; n: number }>`
    select stream_id, n from ${sql.id(`${prefix}_counts`)} order by stream_id`.execute(db);
  return { applied: applied.rows, counts: counts.rows };
}
