import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { pgPushSource, type PushMessage, type PushSource } from '@filiere/projections';
import type { RoleCode } from '../../http/auth.js';
import { bearer, seedCluster, seedUser } from '../../identity/test-support.js';
import { buildTestApp } from '../../test-app.js';
import { ExportRunner } from './export-runner.js';
import { exportSettings } from '../http/queries/export.routes.js';
import { addTransactionRows, readSheet, until } from './testing/export-fixtures.js';
import type { Database } from '../../database.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../../../..');
const t = useTestDatabase<Database>();
const ROWS = 12_000;
let app: FastifyInstance;
let dataDir: string;
let pushes: PushSource;
const received: PushMessage[] = [];
const children = new Set<ChildProcess>();
type User = { id: string; walletId: string; role: RoleCode };
const users = {} as Record<'owner' | 'other' | 'admin' | 'big', User>;

async function seed(role: RoleCode, clusterId: string): Promise<User> {
  const { id } = await seedUser(t.db, role, { clusterId });
  const row = await t.db
    .selectFrom('users')
    .select('wallet_id')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { id, walletId: row.wallet_id as string, role };
}
const get = (who: User, url: string) =>
  app.inject({ method: 'GET', url, headers: bearer(app, who, who.role) });
const pushesOf = (jobId: string) =>
  received.filter((m) => (m.data as { jobId?: string } | undefined)?.jobId === jobId);

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'filiere-export-jobs-'));
  app = await buildTestApp(t.db, { env: { DATA_DIR: dataDir } });
  await app.ready();
  pushes = pgPushSource(t.url);
  pushes.subscribe((m) => received.push(m));
  const cluster = await seedCluster(t.db, `Export jobs ${Date.now()}`);
  users.owner = await seed('ROLE_INDUSTRIAL', cluster);
  users.other = await seed('ROLE_INDUSTRIAL', cluster);
  users.admin = await seed('ROLE_ADMIN', cluster);
  users.big = await seed('ROLE_INDUSTRIAL', cluster);
  await addTransactionRows(t.db, users.owner.walletId, ROWS, {
    destinationUserId: users.other.id,
  });
  await addTransactionRows(t.db, users.big.walletId, ROWS, { firstId: 2_000_000_000 });
  exportSettings.syncLimit = 10_000;
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  exportSettings.syncLimit = 10_000;
  await app.close();
  await pushes.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('background exports in the API process (no REDIS_URL)', () => {
  it('202, then progress and ready pushes to the owner, the file for the owner and admins only', async () => {
    const res = await get(users.owner, `/api/transaction/user/${users.owner.id}/export/xlsx`);
    expect(res.statusCode).toBe(202);
    const job = res.json();
    expect(job).toMatchObject({ total: ROWS, statusUrl: `/api/transaction/export/${job.jobId}` });
    await until(
      async () => (await get(users.owner, job.statusUrl)).json().status === 'READY',
      'the export',
    );
    expect((await get(users.owner, job.statusUrl)).json()).toMatchObject({ done: ROWS });
    // Only the owner (and admins, as the export route allows them) see it.
    expect((await get(users.other, job.statusUrl)).statusCode).toBe(403);
    expect((await get(users.other, job.downloadUrl)).statusCode).toBe(403);
    expect((await get(users.admin, job.statusUrl)).statusCode).toBe(200);
    const file = await get(users.owner, job.downloadUrl);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    const rows = await readSheet(file.rawPayload);
    expect(rows).toHaveLength(ROWS + 1);
    const last = rows[ROWS]!;
    expect(last.slice(0, 6)).toEqual([
      `REF-${ROWS}`,
      'Transfert',
      'Sortie',
      ROWS,
      'Succès',
      `Lot <${ROWS}> & co`,
    ]);
    // Benin time (UTC+1): the cell holds Porto-Novo's wall clock.
    expect(last[9]).toEqual(new Date(Date.UTC(2026, 0, 1, 1) + ROWS * 1000));
    expect(String(last[8])).toMatch(/\S+ \S+/); // the destination's name
    await until(async () => pushesOf(job.jobId).some((m) => m.type === 'export.ready'), 'ready');
    const mine = pushesOf(job.jobId);
    expect(mine.every((m) => m.userIds.join() === users.owner.id)).toBe(true);
    expect(mine.at(-2)).toMatchObject({
      type: 'export.progress',
      data: { jobId: job.jobId, done: ROWS, total: ROWS },
    });
    expect(mine.at(-1)).toMatchObject({
      type: 'export.ready',
      data: { jobId: job.jobId, url: job.downloadUrl },
    });
    // A job id nobody knows: 404.
    const unknown = `/api/transaction/export/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`;
    expect((await get(users.owner, unknown)).statusCode).toBe(404);
  });

  it('a runner killed (SIGKILL) mid-export: after a restart the job is taken again and its file completes once', async () => {
    await app.close(); // this API process stops; a separate runner process claims the job
    const store = new ExportRunner(t.db, async () => undefined, { dataDir }).store;
    const job = await store.create({
      userId: users.big.id,
      walletId: users.big.walletId,
      total: ROWS,
    });
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'testing/run-export.ts')],
      {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: t.url,
          DATA_DIR: dataDir,
          LEASE_MS: '1000',
          PAGE_DELAY_MS: '300',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.add(child);
    const exited = new Promise((r) => child.once('exit', r));
    await until(async () => {
      const now = await store.get(job.id);
      return now?.status === 'RUNNING' && now.done > 0;
    }, 'the first runner’s progress');
    child.kill('SIGKILL');
    await exited;
    children.delete(child);
    const killed = (await store.get(job.id))!;
    expect(killed).toMatchObject({ status: 'RUNNING', attempts: 1 });
    expect(killed.done).toBeLessThan(ROWS);
    const dir = path.join(dataDir, 'exports');
    expect((await readdir(dir)).filter((f) => f.startsWith(job.id))).toEqual([`${job.id}.1.part`]);

    // The API starts again: its loop takes the job once the dead runner's lease ran out.
    app = await buildTestApp(t.db, { env: { DATA_DIR: dataDir } });
    await app.ready();
    const statusUrl = `/api/transaction/export/${job.id}`;
    await until(
      async () => (await get(users.big, statusUrl)).json().status === 'READY',
      'the export after the restart',
    );
    expect(await store.get(job.id)).toMatchObject({ status: 'READY', attempts: 2, done: ROWS });
    expect((await readdir(dir)).filter((f) => f.startsWith(job.id))).toEqual([`${job.id}.xlsx`]);
    const file = await get(users.big, `${statusUrl}/download`);
    expect(file.statusCode).toBe(200);
    expect(await readSheet(file.rawPayload)).toHaveLength(ROWS + 1);
    await until(async () => pushesOf(job.id).some((m) => m.type === 'export.ready'), 'ready');
    await new Promise((r) => setTimeout(r, 300));
    expect(pushesOf(job.id).filter((m) => m.type === 'export.ready')).toHaveLength(1);
  }, 120_000);

  it('the sweep removes jobs and their files after 24 hours, and files as old no job names', async () => {
    const runner = new ExportRunner(t.db, async () => undefined, { dataDir });
    const { id } = await runner.store.create({
      userId: users.owner.id,
      walletId: users.owner.walletId,
      total: ROWS,
    });
    await runner.runDue();
    const file = runner.fileOf((await runner.store.get(id))!.file!);
    const orphan = path.join(dataDir, 'exports', 'not-a-job.xlsx');
    expect(await readdir(path.dirname(file))).toContain(`${id}.xlsx`);
    const oldOrphan = path.join(dataDir, 'exports', 'gone-job.xlsx');
    await writeFile(orphan, 'x'); // maybe another database's job sharing DATA_DIR: kept
    await writeFile(oldOrphan, 'x');
    const dayAndHourAgo = new Date(Date.now() - 25 * 60 * 60_000);
    await utimes(oldOrphan, dayAndHourAgo, dayAndHourAgo);
    expect(await runner.sweep()).toBe(0); // the job is young: kept
    const left = await readdir(path.join(dataDir, 'exports'));
    expect(left).toContain('not-a-job.xlsx');
    expect(left).toContain(`${id}.xlsx`);
    expect(left).not.toContain('gone-job.xlsx');
    await sql`update wallet_exports set created_at = now() - interval '25 hours'
      where id = ${id}`.execute(t.db);
    expect(await runner.sweep()).toBe(1);
    expect((await readdir(path.join(dataDir, 'exports'))).includes(`${id}.xlsx`)).toBe(false);
    const gone = await get(users.owner, `/api/transaction/export/${id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('Export introuvable ou expiré');
  });
});
