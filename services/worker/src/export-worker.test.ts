import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithRedis, useTestDatabase } from '@filiere/platform/testing';
import { ExportQueue } from '../../api/src/wallet/export/export-queue.js';
import { ExportStore } from '../../api/src/wallet/export/export-store.js';
import {
  addTransactionRows,
  readSheet,
  until,
} from '../../api/src/wallet/export/testing/export-fixtures.js';
import type { Database } from '@filiere/api';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const t = useTestDatabase<Database>();
const children = new Set<ChildProcess>();
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'filiere-worker-export-'));
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

describeWithRedis('the worker process runs the exports', (redisUrl) => {
  it('`npm run worker` takes an export queued by the API and writes its file under DATA_DIR', async () => {
    await addTransactionRows(t.db, 'w-worker-export', 2_500);
    const store = new ExportStore(t.db);
    const job = await store.create({ userId: 'u-1', walletId: 'w-worker-export', total: 2_500 });
    // As `npm run worker` runs it: the server's launcher on the worker's entry.
    const launcher = path.join(root, 'scripts/run.mjs');
    const child = spawn(process.execPath, [launcher, path.join(here, 'main.ts')], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: t.url,
        REDIS_URL: redisUrl,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        NODE_ENV: 'test',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.add(child);
    const queue = new ExportQueue(redisUrl);
    queue.wake(job.id);
    await until(async () => (await store.get(job.id))?.status === 'READY', 'the export', 90_000);
    await queue.close();
    const done = (await store.get(job.id))!;
    expect(done).toMatchObject({ done: 2_500, file: `exports/${job.id}.xlsx` });
    expect(await readdir(path.join(dataDir, 'exports'))).toEqual([`${job.id}.xlsx`]);
    expect(await readSheet(path.join(dataDir, done.file!))).toHaveLength(2_501);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    children.delete(child);
  }, 120_000);
});
