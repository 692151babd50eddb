import { createLogger, findRedisServer, startRedisServer } from '@filiere/platform';
import { describeWithRedis, useTestDatabase } from '@filiere/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { GROUP_JOB, ProjectionQueue, startProjectionWorkers } from './bullmq.js';
import { projectionLag } from './lag.js';
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

describeWithRedis('Redis outage', () => {
  it('appends succeed while Redis is down; projections catch up once it is back', async () => {
    // A Redis of our own, so that stopping it disturbs no other test.
    const redis = await startRedisServer(findRedisServer());
    await createCountingTables(t.db, 'o1');
    const projector = countingProjector('o1');
    const logger = createLogger('silent', false);
    const workers = await startProjectionWorkers({
      db: t.db,
      redisUrl: redis.url,
      projectors: [projector],
      logger,
      sweepMs: 300,
    });
    // The API side: wakes the group job after each append, best effort.
    const api = new ProjectionQueue(redis.url, [GROUP_JOB], logger);
    const lag = async () => (await projectionLag(t.db, ['o1'])).projectors.o1!.lag;
    try {
      await appendTestEvents(t.db, [{ streamId: 'o-1', type: 'Counted' }]);
      api.wake();
      await waitFor(async () => (await lag()) === 0);

      await redis.stop();
      for (let i = 0; i < 5; i++) {
        await appendTestEvents(t.db, [{ streamId: `o-${i}`, type: 'Counted' }]);
        api.wake(); // fails quietly: Redis is down
      }
      await new Promise((r) => setTimeout(r, 1000));
      expect(await lag()).toBe(5);

      await redis.restart(); // empty: every queued job is gone too
      await waitFor(async () => (await lag()) === 0);
      const snap = await snapshotCounting(t.db, 'o1');
      expect(snap.counts.reduce((s, c) => s + c.n, 0)).toBe(snap.applied.length);
    } finally {
      await api.close();
      await workers.close();
      await redis.stop();
    }
  });
});

async function waitFor(check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
