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
import { createLogger, parseConfig } from '@filiere/platform';
import { runWorker, type RunningWorker } from './worker.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const t = useTestDatabase<Database>();
const children = new Set<ChildProcess>();
const inProcess = new Set<RunningWorker>();

beforeAll(async () => {
  await ensureEventsTable(t.db);
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const worker of inProcess) await worker.close();
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

/**
 * The same worker as testing/counting-worker.ts (its settings, the counting projector at full
 * speed) in this process: a spawned worker loads the whole API again (5-10 s a start on a
 * loaded machine), and only the worker that is killed has to be a process of its own.
 */
async function startWorkerHere(redisUrl: string, prefix: string): Promise<RunningWorker> {
  const config = parseConfig({
    ...process.env,
    DATABASE_URL: t.url,
    REDIS_URL: redisUrl,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
  });
  const worker = await runWorker({
    config,
    databaseUrl: t.url,
    redisUrl,
    logger: createLogger(config.LOG_LEVEL, false),
    decode: null,
    batchSize: 25,
    projectors: [countingProjector(prefix)],
  });
  inProcess.add(worker);
  return worker;
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
    const second = await startWorkerHere(redisUrl, 'kill');
    await until(
      async () => (await projectionLag(t.db, ['kill'])).projectors.kill!.lag === 0,
      'catch-up',
    );
    await assertExactlyOnce('kill');
    inProcess.delete(second);
    await second.close();
  }, 150_000);
});
