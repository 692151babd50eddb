import { createLogger } from '@filiere/platform';
import { describeWithRedis, useTestDatabase } from '@filiere/platform/testing';
import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { GROUP_JOB, ProjectionQueue, startProjectionWorkers } from './bullmq.js';
import { ensureCheckpoint } from './checkpoints.js';
import { startInProcessProjections } from './in-process.js';
import { projectionLag } from './lag.js';
import type { PushMessage } from './projector.js';
import {
  fitPayload,
  pgPushPublisher,
  pgPushSource,
  redisPushPublisher,
  redisPushSource,
} from './pushes.js';
import {
  appendTestEvents,
  countingProjector,
  createCountingTables,
  ensureEventsTable,
  snapshotCounting,
} from './testing/index.js';
import type { ProjectionTables } from './migrations/tables.js';

const t = useTestDatabase<ProjectionTables>();
const logger = createLogger('silent', false);

beforeAll(async () => {
  await ensureEventsTable(t.db);
});

async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function caughtUp(names: string[]): Promise<boolean> {
  const lag = await projectionLag(t.db, names);
  return Object.values(lag.projectors).every((p) => p.lag === 0);
}

describe('in-process dispatch (no Redis)', () => {
  it('wakes projectors on NOTIFY filiere_events and publishes pushes through pg_notify', async () => {
    await createCountingTables(t.db, 'd1');
    const projector = countingProjector('d1', { pushTo: (s) => `u-${s}` });
    const received: PushMessage[] = [];
    const source = pgPushSource(t.url);
    source.subscribe((m) => received.push(m));
    const running = startInProcessProjections({
      db: t.db,
      projectors: [projector],
      logger,
      databaseUrl: t.url,
      publish: pgPushPublisher(t.db),
      sweepMs: 60_000,
    });
    try {
      await running.idle();
      await new Promise((r) => setTimeout(r, 300)); // LISTEN connections are up
      // Appended by "another process": only the NOTIFY wakes the projector (the sweep is 60 s).
      await appendTestEvents(t.db, [{ streamId: 'd1s-1', type: 'Counted' }]);
      await until(() => caughtUp(['d1']), 'd1 to catch up');
      await until(async () => received.some((m) => m.userIds.includes('u-d1s-1')), 'the push');
      expect(received.find((m) => m.userIds.includes('u-d1s-1'))).toEqual({
        type: 'counted',
        userIds: ['u-d1s-1'],
        data: { streamId: 'd1s-1' },
      });
    } finally {
      await running.close();
      await source.close();
    }
  });

  it('retries a failing projector with backoff while the others go on', async () => {
    await createCountingTables(t.db, 'd2');
    await createCountingTables(t.db, 'd2ok');
    let refuse = true;
    const failing = countingProjector('d2', { failOn: () => refuse });
    const healthy = countingProjector('d2ok');
    const running = startInProcessProjections({
      db: t.db,
      projectors: [failing, healthy],
      logger,
      retryMs: 20,
      sweepMs: 60_000,
    });
    try {
      await appendTestEvents(t.db, [{ streamId: 'd2s', type: 'Counted' }]);
      running.wake();
      await until(() => caughtUp(['d2ok']), 'the healthy projector');
      // The two run side by side: the healthy one may be caught up before the failing one's
      // error is written, so wait for the error rather than assume it came first.
      await until(
        async () => (await projectionLag(t.db, ['d2'])).projectors.d2?.lastError != null,
        'the failing projector to record its error',
      );
      const lag = await projectionLag(t.db, ['d2']);
      expect(lag.projectors.d2!.lag).toBeGreaterThan(0);
      expect(lag.projectors.d2!.lastError).toMatch(/refused/);
      refuse = false;
      await until(() => caughtUp(['d2']), 'the failing projector to recover');
    } finally {
      await running.close();
    }
  });

  it("publishes a batch's pushes through pg_notify in their order, a split one's parts included", async () => {
    const received: PushMessage[] = [];
    const source = pgPushSource(t.url);
    source.subscribe((m) => received.push(m));
    try {
      await new Promise((r) => setTimeout(r, 300)); // the LISTEN connection is up
      const many = Array.from(
        { length: 400 },
        (_, i) => `10000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
      );
      const batch: PushMessage[] = [
        { type: 'first', userIds: ['u-1'] },
        { type: 'split', userIds: many },
        { type: 'last', userIds: ['u-2'], data: { n: 2 } },
      ];
      const expected = batch.flatMap(fitPayload).map((p) => JSON.parse(p) as PushMessage);
      expect(expected.length).toBeGreaterThan(3);
      await pgPushPublisher(t.db)(batch);
      await until(async () => received.length >= expected.length, 'every part');
      expect(received).toEqual(expected);
    } finally {
      await source.close();
    }
  });

  it('gathers the events of gatherMs into one batch, and idle() does not wait for it', async () => {
    await createCountingTables(t.db, 'd4');
    const counting = countingProjector('d4');
    const batches: number[] = [];
    const projector = {
      ...counting,
      apply: (...args: Parameters<typeof counting.apply>) => {
        batches.push(args[1].length);
        return counting.apply(...args);
      },
    };
    const running = startInProcessProjections({
      db: t.db,
      projectors: [projector],
      logger,
      gatherMs: 10_000,
      sweepMs: 60_000,
    });
    try {
      await running.idle(); // a first run starts at once (the file's earlier events included)
      batches.length = 0;
      const before = (await snapshotCounting(t.db, 'd4')).applied.length;
      await appendTestEvents(t.db, [{ streamId: 'd4s-1', type: 'Counted' }]);
      running.wake(); // within 10 s of the last run: it waits
      await new Promise((r) => setTimeout(r, 200));
      await appendTestEvents(t.db, [{ streamId: 'd4s-2', type: 'Counted' }]);
      running.wake();
      await new Promise((r) => setTimeout(r, 300));
      expect(batches).toEqual([]);
      expect((await snapshotCounting(t.db, 'd4')).applied.length).toBe(before);

      const asked = performance.now();
      await running.idle();
      expect(performance.now() - asked).toBeLessThan(5_000);
      expect(batches).toEqual([2]);
      const applied = (await snapshotCounting(t.db, 'd4')).applied;
      expect(applied.slice(before).map((r) => r.stream_id)).toEqual(['d4s-1', 'd4s-2']);
    } finally {
      await running.close();
    }
  });

  it('splits pushes that would not fit in one NOTIFY', () => {
    const userIds = Array.from(
      { length: 600 },
      (_, i) => `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
    );
    const parts = fitPayload({ type: 'x', userIds, data: { big: 'y'.repeat(9000) } });
    expect(parts.length).toBeGreaterThan(1);
    const back = parts.map((p) => JSON.parse(p) as PushMessage);
    expect(back.flatMap((m) => m.userIds)).toEqual(userIds);
    for (const p of parts) expect(Buffer.byteLength(p)).toBeLessThan(8000);
    expect(back[0]!.data).toBeUndefined();
  });
});

describeWithRedis('BullMQ dispatch', (redisUrl) => {
  it('catches up through deduplicated jobs run by two workers, and pushes through Redis', async () => {
    await createCountingTables(t.db, 'q1');
    const projector = countingProjector('q1', { pushTo: (s) => `u-${s}` });
    const redis = new Redis(redisUrl);
    const received: PushMessage[] = [];
    const source = redisPushSource(redis);
    source.subscribe((m) => received.push(m));
    const options = {
      db: t.db,
      redisUrl,
      projectors: [projector],
      logger,
      publish: redisPushPublisher(redis),
      sweepMs: 60_000,
      batchSize: 5,
      maxBatches: 2,
    };
    const a = await startProjectionWorkers(options);
    const b = await startProjectionWorkers(options);
    try {
      for (let i = 0; i < 10; i++) {
        await appendTestEvents(
          t.db,
          Array.from({ length: 7 }, (_, k) => ({ streamId: `q1s-${k % 3}`, type: 'Counted' })),
        );
        a.queue.wake();
      }
      await until(() => caughtUp(['q1']), 'q1 to catch up');
      const snap = await snapshotCounting(t.db, 'q1');
      expect(snap.counts.reduce((s, c) => s + c.n, 0)).toBe(snap.applied.length);
      await until(async () => received.some((m) => m.userIds.includes('u-q1s-0')), 'a push');
    } finally {
      await a.close();
      await b.close();
      await source.close();
      redis.disconnect();
    }
  });

  it("the API's wake-up queues the group job alone; a worker runs every projector in it, those with no event of their types moved to the head", async () => {
    await createCountingTables(t.db, 'q2a');
    await createCountingTables(t.db, 'q2b');
    const counted = countingProjector('q2a', { eventTypes: ['Q2Counted'] });
    const other = countingProjector('q2b', { eventTypes: ['NotAppended'] });
    for (const p of [counted, other]) await ensureCheckpoint(t.db, p.name);
    const api = new ProjectionQueue(redisUrl, [GROUP_JOB], logger);
    let worker: Awaited<ReturnType<typeof startProjectionWorkers>> | undefined;
    const added = vi.spyOn(api.queue, 'add');
    try {
      const head = await appendTestEvents(t.db, [
        { streamId: 'q2s-1', type: 'Q2Counted' },
        { streamId: 'q2s-2', type: 'Q2Counted' },
      ]);
      api.wake();
      api.wake(); // while the first add is in flight: no second one
      await until(async () => added.mock.results.length > 0, 'the add');
      await added.mock.results[0]!.value;
      expect(added.mock.calls.map((c) => c[0])).toEqual([GROUP_JOB]);
      worker = await startProjectionWorkers({
        db: t.db,
        redisUrl,
        projectors: [counted, other],
        logger,
        sweepMs: 60_000,
      });
      await until(() => caughtUp(['q2a', 'q2b']), 'both projectors');
      const lag = await projectionLag(t.db, ['q2a', 'q2b']);
      expect(lag.projectors.q2a?.checkpoint).toBeGreaterThanOrEqual(head);
      expect(lag.projectors.q2b?.checkpoint).toBeGreaterThanOrEqual(head);
      expect((await snapshotCounting(t.db, 'q2a')).applied.map((r) => r.stream_id)).toEqual([
        'q2s-1',
        'q2s-2',
      ]);
    } finally {
      await worker?.close();
      await api.close();
    }
  });

  it('a projector failing in the group runs alone (its error recorded) while the others go on, and rejoins once it can apply', async () => {
    await createCountingTables(t.db, 'q3bad');
    await createCountingTables(t.db, 'q3ok');
    let refuse = true;
    const failing = countingProjector('q3bad', {
      eventTypes: ['Q3Counted'],
      failOn: () => refuse,
    });
    const healthy = countingProjector('q3ok', { eventTypes: ['Q3Counted'] });
    const worker = await startProjectionWorkers({
      db: t.db,
      redisUrl,
      projectors: [failing, healthy],
      logger,
      retryMs: 20,
      sweepMs: 60_000,
    });
    try {
      await appendTestEvents(t.db, [{ streamId: 'q3s-1', type: 'Q3Counted' }]);
      worker.queue.wake();
      await until(() => caughtUp(['q3ok']), 'the healthy projector');
      await until(
        async () => (await projectionLag(t.db, ['q3bad'])).projectors.q3bad?.lastError != null,
        'the failing projector to record its error',
      );
      expect((await projectionLag(t.db, ['q3bad'])).projectors.q3bad!.lag).toBeGreaterThan(0);
      // The others go on while it fails.
      await appendTestEvents(t.db, [{ streamId: 'q3s-2', type: 'Q3Counted' }]);
      worker.queue.wake();
      await until(() => caughtUp(['q3ok']), 'the healthy projector, again');
      refuse = false;
      await until(() => caughtUp(['q3bad']), 'the failing projector to recover');
      // Back in the group: a new event reaches both through the group job.
      await appendTestEvents(t.db, [{ streamId: 'q3s-3', type: 'Q3Counted' }]);
      worker.queue.wake();
      await until(() => caughtUp(['q3bad', 'q3ok']), 'both, in the group');
      for (const prefix of ['q3bad', 'q3ok']) {
        const snap = await snapshotCounting(t.db, prefix);
        expect(snap.applied.map((r) => r.stream_id)).toEqual(['q3s-1', 'q3s-2', 'q3s-3']);
      }
      expect((await projectionLag(t.db, ['q3bad'])).projectors.q3bad!.lastError).toBeUndefined();
    } finally {
      await worker.close();
    }
  });
});
