import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { readCheckpoints } from './checkpoints.js';
import { catchUp, ProjectionFailure, runBatch } from './runner.js';
import type { PushMessage } from './projector.js';
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

describe('projection runner', () => {
  it('applies events after the checkpoint in batches, skips other types, and moves the checkpoint', async () => {
    await createCountingTables(t.db, 'r1');
    const projector = countingProjector('r1');
    await appendTestEvents(t.db, [
      { streamId: 'a-1', type: 'Counted' },
      { streamId: 'a-1', type: 'Ignored' },
      { streamId: 'a-2', type: 'Counted' },
      { streamId: 'a-1', type: 'Counted' },
    ]);
    const head = await appendTestEvents(t.db, [{ streamId: 'a-3', type: 'Ignored' }]);
    const result = await catchUp(t.db, projector, { batchSize: 2 });
    expect(result.caughtUp).toBe(true);
    expect(result.position).toBe(head);
    const snap = await snapshotCounting(t.db, 'r1');
    expect(snap.counts).toEqual([
      { stream_id: 'a-1', n: 2 },
      { stream_id: 'a-2', n: 1 },
    ]);
    const cp = (await readCheckpoints(t.db)).find((c) => c.name === 'r1');
    expect(cp?.position).toBe(head);
    // Nothing new: a further run reads nothing and changes nothing.
    expect((await runBatch(t.db, projector)).read).toBe(0);
    expect(await snapshotCounting(t.db, 'r1')).toEqual(snap);
  });

  it('stops a failing projector at the failing event, records the error, and resumes after a fix', async () => {
    await createCountingTables(t.db, 'r2');
    let refuse = true;
    const projector = countingProjector('r2', {
      failOn: (data) => refuse && (data as { bad?: boolean }).bad === true,
    });
    const other = countingProjector('r2b');
    await createCountingTables(t.db, 'r2b');
    const before = (await catchUp(t.db, projector)).position;
    await appendTestEvents(t.db, [
      { streamId: 'f-1', type: 'Counted' },
      { streamId: 'f-1', type: 'Counted' },
      { streamId: 'f-2', type: 'Counted', data: { bad: true } },
      { streamId: 'f-1', type: 'Counted' },
    ]);
    const error = await catchUp(t.db, projector, { batchSize: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProjectionFailure);
    expect((error as ProjectionFailure).position).toBe(before + 3);
    let cp = (await readCheckpoints(t.db)).find((c) => c.name === 'r2');
    expect(cp?.position).toBe(before + 2);
    expect(cp?.lastError).toMatch(/refused event/);
    // Another projector is not held back.
    await expect(catchUp(t.db, other)).resolves.toMatchObject({ caughtUp: true });
    refuse = false;
    const done = await catchUp(t.db, projector, { batchSize: 10 });
    expect(done.position).toBe(before + 4);
    cp = (await readCheckpoints(t.db)).find((c) => c.name === 'r2');
    expect(cp?.lastError).toBeNull();
    const { rows } = await sql<{
      n: number;
    }>`select n from r2_counts where stream_id = 'f-1'`.execute(t.db);
    expect(rows[0]?.n).toBe(3);
  });

  it('publishes pushes only after the batch commits', async () => {
    await createCountingTables(t.db, 'r3');
    const projector = countingProjector('r3', { pushTo: (s) => `user-${s}` });
    await catchUp(t.db, projector);
    await appendTestEvents(t.db, [{ streamId: 'p-1', type: 'Counted' }]);
    const seen: { msgs: PushMessage[]; committed: number }[] = [];
    await catchUp(t.db, projector, {
      publish: async (msgs) => {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from r3_counts where stream_id = 'p-1'`.execute(t.db);
        seen.push({ msgs, committed: rows[0]!.n });
      },
    });
    expect(seen).toEqual([
      {
        msgs: [{ type: 'counted', userIds: ['user-p-1'], data: { streamId: 'p-1' } }],
        committed: 1,
      },
    ]);
  });

  it('never lets two runners apply the same projector at once', async () => {
    await createCountingTables(t.db, 'r4');
    const projector = countingProjector('r4');
    for (let i = 0; i < 20; i++) {
      await appendTestEvents(
        t.db,
        Array.from({ length: 10 }, (_, k) => ({ streamId: `c-${k % 3}`, type: 'Counted' })),
      );
    }
    // Eight concurrent runners; the position primary key would reject a double apply.
    await Promise.all(Array.from({ length: 8 }, () => catchUp(t.db, projector, { batchSize: 7 })));
    const snap = await snapshotCounting(t.db, 'r4');
    const total = snap.counts.reduce((s, c) => s + c.n, 0);
    expect(total).toBe(snap.applied.length);
    expect(snap.applied.length).toBeGreaterThanOrEqual(200);
  });
});
