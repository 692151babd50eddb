import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { readCheckpoints } from './checkpoints.js';
import { checkProjector, rebuildProjector } from './rebuild.js';
import { catchUp, runBatch } from './runner.js';
import {
  appendTestEvents,
  countingProjector,
  createCountingTables,
  ensureEventsTable,
  snapshotCounting,
} from './testing/index.js';
import type { ProjectionTables } from './migrations/tables.js';

const t = useTestDatabase<ProjectionTables>();

beforeAll(async () => {
  await ensureEventsTable(t.db);
});

describe('rebuild and check', () => {
  it('rebuilds into fresh tables and swaps them in, keeping indexes and setting the checkpoint', async () => {
    await createCountingTables(t.db, 'b1');
    const projector = countingProjector('b1');
    const head = await appendTestEvents(
      t.db,
      Array.from({ length: 50 }, (_, i) => ({ streamId: `s-${i % 4}`, type: 'Counted' })),
    );
    await catchUp(t.db, projector, { batchSize: 9 });
    const live = await snapshotCounting(t.db, 'b1');
    // Damage the live table: the rebuild must replace it.
    await sql`update b1_counts set n = n + 100`.execute(t.db);
    const result = await rebuildProjector(t.db, projector, { batchSize: 7 });
    expect(result.position).toBe(head);
    expect(await snapshotCounting(t.db, 'b1')).toEqual(live);
    expect((await readCheckpoints(t.db)).find((c) => c.name === 'b1')?.position).toBe(head);
    const { rows } = await sql<{ indexname: string }>`
      select indexname from pg_indexes where schemaname = 'public' and tablename = 'b1_applied'
      order by indexname`.execute(t.db);
    expect(rows).toHaveLength(2);
    const schemas = await sql<{ n: number }>`
      select count(*)::int as n from pg_namespace where nspname like 'rebuild_%'`.execute(t.db);
    expect(schemas.rows[0]?.n).toBe(0);
  });

  it('check reports no difference on a healthy projection and prints the rows that differ otherwise', async () => {
    await createCountingTables(t.db, 'b2');
    const projector = countingProjector('b2');
    await appendTestEvents(t.db, [
      { streamId: 'k-1', type: 'Counted' },
      { streamId: 'k-2', type: 'Counted' },
    ]);
    await catchUp(t.db, projector);
    expect((await checkProjector(t.db, projector)).differences).toEqual([]);
    await sql`update b2_counts set n = 99 where stream_id = 'k-1'`.execute(t.db);
    await sql`delete from b2_applied where position = (select max(position) from b2_applied)`.execute(
      t.db,
    );
    const result = await checkProjector(t.db, projector);
    expect(result.differences.map((d) => d.table).sort()).toEqual(['b2_applied', 'b2_counts']);
    const counts = result.differences.find((d) => d.table === 'b2_counts')!;
    expect(counts.onlyLive).toContainEqual({ stream_id: 'k-1', n: 99 });
    expect(counts.onlyReplay.find((r) => r.stream_id === 'k-1')).toBeTruthy();
    const applied = result.differences.find((d) => d.table === 'b2_applied')!;
    expect(applied.onlyLive).toEqual([]);
    expect(applied.onlyReplay).toHaveLength(1);
  });

  it('check compares at the live checkpoint even when the projector is behind', async () => {
    await createCountingTables(t.db, 'b3');
    const projector = countingProjector('b3');
    await appendTestEvents(t.db, [{ streamId: 'l-1', type: 'Counted' }]);
    await catchUp(t.db, projector);
    await appendTestEvents(t.db, [{ streamId: 'l-1', type: 'Counted' }]);
    expect((await checkProjector(t.db, projector)).differences).toEqual([]);
  });

  it('property: any interleaving of appends and live batches, then a rebuild, yields the live tables', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({
              kind: fc.constant('append' as const),
              events: fc.array(
                fc.record({
                  stream: fc.integer({ min: 0, max: 4 }),
                  type: fc.constantFrom('Counted', 'Counted', 'Other'),
                }),
                { minLength: 1, maxLength: 6 },
              ),
            }),
            fc.record({
              kind: fc.constant('batch' as const),
              size: fc.integer({ min: 1, max: 5 }),
            }),
            fc.record({
              kind: fc.constant('concurrent' as const),
              size: fc.integer({ min: 1, max: 3 }),
            }),
          ),
          { maxLength: 15 },
        ),
        async (steps) => {
          const prefix = `p${run++}`;
          await createCountingTables(t.db, prefix);
          const projector = countingProjector(prefix);
          for (const step of steps) {
            if (step.kind === 'append') {
              await appendTestEvents(
                t.db,
                step.events.map((e) => ({ streamId: `${prefix}-${e.stream}`, type: e.type })),
              );
            } else if (step.kind === 'batch') {
              await runBatch(t.db, projector, { batchSize: step.size }).catch(
                async (e: unknown) => {
                  // The first batch of a new projector needs its checkpoint row.
                  if (!String(e).includes('No checkpoint row')) throw e;
                  await catchUp(t.db, projector, { batchSize: step.size, maxBatches: 1 });
                },
              );
            } else {
              // An append racing with a live batch.
              await Promise.all([
                appendTestEvents(t.db, [{ streamId: `${prefix}-0`, type: 'Counted' }]),
                catchUp(t.db, projector, { batchSize: step.size, maxBatches: 2 }),
              ]);
            }
          }
          await catchUp(t.db, projector, { batchSize: 4 });
          const live = await snapshotCounting(t.db, prefix);
          await rebuildProjector(t.db, projector, { batchSize: 3 });
          expect(await snapshotCounting(t.db, prefix)).toEqual(live);
          expect((await checkProjector(t.db, projector)).differences).toEqual([]);
        },
      ),
      { numRuns: 20 },
    );
  }, 180_000);
});

describe('replay into a scratch schema', () => {
  it("writes a projector's raw SQL naming its tables into the replay's copies, never the live tables", async () => {
    await createCountingTables(t.db, 'b9');
    const counting = countingProjector('b9');
    // The counting projector, plus one raw statement naming its table unqualified, as a
    // batched projector's `sql\`update …\`` would.
    const projector = {
      ...counting,
      async apply(...args: Parameters<typeof counting.apply>) {
        await counting.apply(...args);
        await sql`update b9_counts set n = n + 1000 where stream_id = 'raw'`.execute(args[0]);
      },
    };
    await sql`insert into b9_counts (stream_id, n) values ('raw', 0)`.execute(t.db);
    await appendTestEvents(t.db, [{ streamId: 'raw', type: 'Counted' }]);
    await catchUp(t.db, projector);
    const live = await snapshotCounting(t.db, 'b9');
    // The replay's copy applies the events (the check compares it with the live tables);
    // the live row must not move.
    await checkProjector(t.db, projector);
    expect(await snapshotCounting(t.db, 'b9')).toEqual(live);
  });
});
