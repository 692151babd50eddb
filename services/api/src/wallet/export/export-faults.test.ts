import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import type { PushMessage } from '@filiere/projections';
import { ExportRunner } from './export-runner.js';
import type { WalletExportsTables } from './export-store.js';
import { addTransactionRows, readSheet } from './testing/export-fixtures.js';

const t = useTestDatabase<WalletExportsTables>();
const ROWS = 1_500;
let dataDir: string;
const pushes: PushMessage[] = [];

/** A runner whose store's `method` throws (a connection lost) the first `times` calls. */
function runnerFailing(method: 'finish' | 'heartbeat', times: number) {
  const runner = new ExportRunner(t.db, async (messages) => void pushes.push(...messages), {
    dataDir,
    progressMs: 0,
    pageSize: 500,
  });
  const store = runner.store;
  const real = store[method].bind(store) as (...args: unknown[]) => Promise<boolean>;
  let failures = 0;
  store[method] = (async (...args: unknown[]) => {
    if (failures < times) {
      failures++;
      throw new Error('Connection terminated unexpectedly');
    }
    return real(...args);
  }) as never;
  return runner;
}

const pushed = (jobId: string, type: string) =>
  pushes.filter((m) => m.type === type && (m.data as { jobId: string }).jobId === jobId);

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'filiere-export-faults-'));
  await addTransactionRows(t.db, 'w-faults', ROWS);
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('an export meeting a database restart', () => {
  it('records READY through a lost connection when its file is written (once, pushed once)', async () => {
    const runner = runnerFailing('finish', 2);
    const job = await runner.store.create({ userId: 'u-1', walletId: 'w-faults', total: ROWS });
    expect(await runner.runDue()).toBe(1);
    expect(await runner.store.get(job.id)).toMatchObject({
      status: 'READY',
      attempts: 1,
      done: ROWS,
      file: `exports/${job.id}.xlsx`,
    });
    expect(await readSheet(runner.fileOf(`exports/${job.id}.xlsx`))).toHaveLength(ROWS + 1);
    expect(pushed(job.id, 'export.ready')).toHaveLength(1);
    expect(pushed(job.id, 'export.failed')).toHaveLength(0);
  });

  it('a run broken by it is given back and completes at the next claim', async () => {
    const runner = runnerFailing('heartbeat', 1);
    const job = await runner.store.create({ userId: 'u-1', walletId: 'w-faults', total: ROWS });
    expect(await runner.runDue()).toBe(1);
    expect(await runner.store.get(job.id)).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect(pushed(job.id, 'export.failed')).toHaveLength(0);
    expect(await runner.runDue()).toBe(1);
    expect(await runner.store.get(job.id)).toMatchObject({
      status: 'READY',
      attempts: 2,
      done: ROWS,
    });
    const files = (await readdir(runner.dir)).filter((f) => f.startsWith(job.id));
    expect(files).toEqual([`${job.id}.xlsx`]);
    expect(pushed(job.id, 'export.ready')).toHaveLength(1);
  });

  it('a job failing at every claim is FAILED after maxAttempts claims, pushed once', async () => {
    const runner = runnerFailing('heartbeat', Infinity);
    const job = await runner.store.create({ userId: 'u-1', walletId: 'w-faults', total: ROWS });
    for (let i = 0; i < 3; i++) expect(await runner.runDue()).toBe(1);
    expect(await runner.runDue()).toBe(0);
    expect(await runner.store.get(job.id)).toMatchObject({
      status: 'FAILED',
      attempts: 3,
      error: 'Connection terminated unexpectedly',
    });
    expect(pushed(job.id, 'export.failed')).toHaveLength(1);
    expect((await readdir(runner.dir)).filter((f) => f.startsWith(job.id))).toEqual([]);
  });
});
