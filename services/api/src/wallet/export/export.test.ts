import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgPushSource, type PushMessage, type PushSource } from '@filiere/projections';
import { useTestDatabase } from '@filiere/platform/testing';
import type { RoleCode } from '../../http/auth.js';
import { bearer, seedCluster, seedUser } from '../../identity/test-support.js';
import { buildTestApp } from '../../test-app.js';
import { WalletEvents } from '../http/queries/test-events.js';
import { exportSettings } from '../http/queries/export.routes.js';
import type { Database } from '../../database.js';

const t = useTestDatabase<Database>();
let app: FastifyInstance;
let dataDir: string;
let pushes: PushSource;
const received: PushMessage[] = [];
const users: Record<'a' | 'g' | 'empty', { id: string; walletId: string; role: RoleCode }> =
  {} as never;

async function seed(role: RoleCode, clusterId: string) {
  const { id } = await seedUser(t.db, role, { clusterId });
  const row = await t.db
    .selectFrom('users')
    .select('wallet_id')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { id, walletId: row.wallet_id as string, role };
}
const get = (who: { id: string; role: RoleCode }, url: string) =>
  app.inject({ method: 'GET', url, headers: bearer(app, who, who.role) });

async function readBack(payload: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(payload as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('Transactions')!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'filiere-export-'));
  app = await buildTestApp(t.db, { env: { DATA_DIR: dataDir } });
  pushes = pgPushSource(t.url);
  pushes.subscribe((m) => received.push(m));
  const cluster = await seedCluster(t.db, `Export ${Date.now()}`);
  users.a = await seed('ROLE_INDUSTRIAL', cluster);
  users.g = await seed('ROLE_GROWER', cluster);
  users.empty = await seed('ROLE_GROWER', cluster);
  const { a, g } = users;
  await new WalletEvents(t.db)
    .open(a.walletId, a.id)
    .open(g.walletId, g.id)
    .supply(a.walletId, a.id, 'SUP-X', 25_000)
    .transfer(a.walletId, g.walletId, 'TR-X', 1_500, 'Intrants')
    .transfer(a.walletId, g.walletId, 'TR-Y', 2_500, 'Transport')
    .commit();
});

afterAll(async () => {
  exportSettings.syncLimit = 10_000;
  await app.close();
  await pushes.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('GET transaction/user/{id}/export/xlsx', () => {
  it('streams an .xlsx with French headers, amounts as numbers and dates as dates', async () => {
    const res = await get(users.a, `/api/transaction/user/${users.a.id}/export/xlsx`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="transactions-/);
    const rows = await readBack(res.rawPayload);
    expect(rows[0]).toEqual([
      'Référence',
      'Type',
      'Sens',
      'Montant (FCFA)',
      'Statut',
      'Motif',
      'Moyen de paiement',
      'Émetteur',
      'Bénéficiaire',
      'Date (heure du Bénin)',
    ]);
    expect(rows.slice(1).map((r) => r.slice(0, 6))).toEqual([
      ['SUP-X', 'Approvisionnement', 'Entrée', 25_000, 'Succès', undefined],
      ['TR-X', 'Transfert', 'Sortie', 1_500, 'Succès', 'Intrants'],
      ['TR-Y', 'Transfert', 'Sortie', 2_500, 'Succès', 'Transport'],
    ]);
    expect(rows[1]![9]).toBeInstanceOf(Date);
  });

  it('writes the dates in Benin time (Africa/Porto-Novo) and the means in French', async () => {
    const res = await get(users.a, `/api/transaction/user/${users.a.id}/export/xlsx`);
    const rows = (await readBack(res.rawPayload)).slice(1);
    expect(rows.map((r) => r[6])).toEqual(['Mobile money', 'Wallet', 'Wallet']);
    const created = await t.db
      .selectFrom('wallet_transactions')
      .select('created_at')
      .where('wallet_id', '=', users.a.walletId)
      .orderBy('id')
      .execute();
    // A sheet's date has no zone: the cell holds the wall-clock time of Porto-Novo.
    const parts = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Africa/Porto-Novo',
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    const wallClock = (at: Date) => {
      const p = Object.fromEntries(parts.formatToParts(at).map((x) => [x.type, Number(x.value)]));
      return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
    };
    rows.forEach((row, i) => {
      const cell = row[9] as Date;
      const at = created[i]!.created_at as Date;
      expect(Math.abs(cell.getTime() - wallClock(at)), String(at)).toBeLessThan(1_000);
    });
  });

  it('answers 204 when the user has no transaction, 403 for another user’s export', async () => {
    const none = await get(users.empty, `/api/transaction/user/${users.empty.id}/export/xlsx`);
    expect(none.statusCode).toBe(204);
    expect(none.rawPayload.length).toBe(0);
    const other = await get(users.g, `/api/transaction/user/${users.a.id}/export/xlsx`);
    expect(other.statusCode).toBe(403);
  });

  it('runs large exports as a job: 202, progress and ready pushes, then the download', async () => {
    exportSettings.syncLimit = 2;
    const res = await get(users.a, `/api/transaction/user/${users.a.id}/export/xlsx`);
    expect(res.statusCode).toBe(202);
    const job = res.json();
    expect(job).toMatchObject({ total: 3, statusUrl: `/api/transaction/export/${job.jobId}` });
    let status = job.status;
    for (let i = 0; i < 400 && (status === 'PENDING' || status === 'RUNNING'); i++) {
      await new Promise((r) => setTimeout(r, 25));
      status = (await get(users.a, job.statusUrl)).json().status;
    }
    expect(status).toBe('READY');
    expect((await get(users.g, job.statusUrl)).statusCode).toBe(403);
    const file = await get(users.a, job.downloadUrl);
    expect(file.statusCode).toBe(200);
    expect((await readBack(file.rawPayload)).length).toBe(4);
    for (let i = 0; i < 200 && !received.some((m) => m.type === 'export.ready'); i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    const mine = received.filter((m) => m.type.startsWith('export.'));
    expect(mine.map((m) => m.type)).toEqual(['export.progress', 'export.ready']);
    expect(mine.every((m) => m.userIds.join() === users.a.id)).toBe(true);
    expect(mine[0]!.data).toEqual({ jobId: job.jobId, done: 3, total: 3 });
    expect(mine[1]!.data).toEqual({ jobId: job.jobId, url: job.downloadUrl });
  });
});
