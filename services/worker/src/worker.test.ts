import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithRedis, useTestDatabase } from '@filiere/platform/testing';
import { checkProjector, projectionLag, readCheckpoints } from '@filiere/projections';
import {
  appendTestEvents,
  countingProjector,
  createCountingTables,
  ensureEventsTable,
  snapshotCounting,
} from '@filiere/projections/testing';
import type { Database } from '@filiere/api';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const t = useTestDatabase<Database>();
const children = new Set<ChildProcess>();

beforeAll(async () => {
  await ensureEventsTable(t.db);
});
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

function startWorker(redisUrl: string, prefix: string, slowMs: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'testing/counting-worker.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: t.url,
        REDIS_URL: redisUrl,
        PREFIX: prefix,
        SLOW_MS: String(slowMs),
        BATCH: '25',
        LOG_LEVEL: 'silent',
        NODE_ENV: 'test',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.add(child);
  child.on('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve(child);
    });
  });
}

async function until(check: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function position(name: string): Promise<number> {
  return (await readCheckpoints(t.db)).find((c) => c.name === name)?.position ?? 0;
}

async function assertExactlyOnce(prefix: string): Promise<void> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from events where type = 'Counted'`.execute(t.db);
  const snap = await snapshotCounting(t.db, prefix);
  // Primary key on position: an event applied twice would have failed its batch.
  expect(snap.applied).toHaveLength(rows[0]!.n);
  expect(snap.counts.reduce((s, c) => s + c.n, 0)).toBe(rows[0]!.n);
  expect((await checkProjector(t.db, countingProjector(prefix))).differences).toEqual([]);
}

describeWithRedis('projection worker processes', (redisUrl) => {
  it('a worker killed (SIGKILL) mid-batch loses nothing and applies nothing twice once another starts', async () => {
    await createCountingTables(t.db, 'kill');
    for (let i = 0; i < 40; i++) {
      await appendTestEvents(
        t.db,
        Array.from({ length: 25 }, (_, k) => ({ streamId: `kill-${k % 7}`, type: 'Counted' })),
      );
    }
    const first = await startWorker(redisUrl, 'kill', 40);
    const head = (await projectionLag(t.db, ['kill'])).head;
    await until(async () => (await position('kill')) > 0, 'the first batches');
    // Kill it while it sits inside a batch's transaction (each batch pauses 40 ms).
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const stoppedAt = await position('kill');
    expect(stoppedAt).toBeLessThan(head);
    await appendTestEvents(t.db, [{ streamId: 'kill-after', type: 'Counted' }]);
    const second = await startWorker(redisUrl, 'kill', 0);
    await until(
      async () => (await projectionLag(t.db, ['kill'])).projectors.kill!.lag === 0,
      'catch-up',
    );
    await assertExactlyOnce('kill');
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
  }, 150_000);
});
