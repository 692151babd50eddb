import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { ensureCheckpoint, readCheckpoints } from './checkpoints.js';
import { catchUpGroup, runGroupBatch } from './group.js';
import type { PushMessage } from './projector.js';
import { catchUp, ProjectionFailure } from './runner.js';
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

const positionOf = async (name: string) =>
  (await readCheckpoints(t.db)).find((c) => c.name === name)?.position;

async function fresh(prefix: string, eventTypes?: string[]) {
  await createCountingTables(t.db, prefix);
  await ensureCheckpoint(t.db, prefix);
  return countingProjector(prefix, eventTypes ? { eventTypes } : {});
}

describe('projector groups (one transaction for several projectors)', () => {
  it('gives each member only its types past its own checkpoint, and moves every checkpoint to the head', async () => {
    const a = await fresh('g1a', ['A']);
    const b = await fresh('g1b', ['B']);
    await appendTestEvents(t.db, [
      { streamId: 's-1', type: 'A' },
      { streamId: 's-1', type: 'B' },
    ]);
    // b alone first: it stands past these two events, a does not.
    await catchUp(t.db, b);
    await appendTestEvents(t.db, [
      { streamId: 's-2', type: 'B' },
      { streamId: 's-2', type: 'Other' },
    ]);
    const head = await appendTestEvents(t.db, [{ streamId: 's-3', type: 'A' }]);
    const result = await catchUpGroup(t.db, [a, b], { batchSize: 2 });
    expect(result.caughtUp).toBe(true);
    expect(result.position).toBe(head);
    expect((await snapshotCounting(t.db, 'g1a')).counts).toEqual([
      { stream_id: 's-1', n: 1 },
      { stream_id: 's-3', n: 1 },
    ]);
    // s-1's B was b's already: applied once, not twice (the position key would refuse it).
    expect((await snapshotCounting(t.db, 'g1b')).counts).toEqual([
      { stream_id: 's-1', n: 1 },
      { stream_id: 's-2', n: 1 },
    ]);
    expect(await positionOf('g1a')).toBe(head);
    expect(await positionOf('g1b')).toBe(head);
  });

  it('commits nothing of a batch a member fails, and names that member', async () => {
    await createCountingTables(t.db, 'g2bad');
    await ensureCheckpoint(t.db, 'g2bad');
    const bad = countingProjector('g2bad', { failOn: () => true });
    const good = await fresh('g2good');
    const start = await appendTestEvents(t.db, [{ streamId: 'x', type: 'Counted' }]);
    await sql`update projection_checkpoints set position = ${start - 1}
              where name in ('g2bad', 'g2good')`.execute(t.db);
    const failure = await runGroupBatch(t.db, [good, bad]).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProjectionFailure);
    expect((failure as ProjectionFailure).projector).toBe('g2bad');
    expect((await snapshotCounting(t.db, 'g2good')).applied).toEqual([]);
    expect(await positionOf('g2good')).toBe(start - 1);
    // Without the failing member the group goes on.
    await catchUpGroup(t.db, [good]);
    expect((await snapshotCounting(t.db, 'g2good')).applied).toHaveLength(1);
  });

  it('publishes the pushes of every member once the batch committed', async () => {
    await createCountingTables(t.db, 'g3');
    await ensureCheckpoint(t.db, 'g3');
    const projector = countingProjector('g3', { pushTo: (s) => `user-${s}` });
    await sql`update projection_checkpoints set position = (select max(position) from events)
              where name = 'g3'`.execute(t.db);
    await appendTestEvents(t.db, [{ streamId: 'p', type: 'Counted' }]);
    const published: PushMessage[] = [];
    let committed = false;
    await catchUpGroup(t.db, [projector], {
      publish: async (messages) => {
        committed = (await snapshotCounting(t.db, 'g3')).applied.length === 1;
        published.push(...messages);
      },
    });
    expect(committed).toBe(true);
    expect(published).toEqual([{ type: 'counted', userIds: ['user-p'], data: { streamId: 'p' } }]);
  });

  it('property: groups and lone runners racing on the same projectors apply every event exactly once', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('Counted', 'Other'), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 4 }),
        async (types, batchSize, groups) => {
          const prefix = `g4r${round++}`;
          const p = await fresh(prefix);
          const q = await fresh(`${prefix}q`);
          await sql`update projection_checkpoints set position = (select coalesce(max(position), 0) from events)
                    where name in (${prefix}, ${`${prefix}q`})`.execute(t.db);
          await appendTestEvents(
            t.db,
            types.map((type, i) => ({ streamId: `r-${i % 4}`, type })),
          );
          await Promise.all([
            ...Array.from({ length: groups }, () => catchUpGroup(t.db, [p, q], { batchSize })),
            catchUp(t.db, p, { batchSize }),
            catchUp(t.db, q, { batchSize: batchSize + 1 }),
          ]);
          const counted = types.filter((x) => x === 'Counted').length;
          for (const name of [prefix, `${prefix}q`]) {
            const snap = await snapshotCounting(t.db, name);
            expect(snap.applied).toHaveLength(counted);
            expect(snap.counts.reduce((s, c) => s + c.n, 0)).toBe(counted);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
