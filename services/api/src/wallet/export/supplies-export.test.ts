import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catchUp } from '@filiere/projections';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../../test-app.js';
import { walletUser, withKey, type TestUser } from '../http/commands/test-support.js';
import { walletProjectors } from '../read-model/index.js';
import { walletDecoder } from '../read-model/test-support.js';
import type { Database } from '../../database.js';

/** 'Télécharger' on Approvisionnements: both tabs in one .xlsx, French, Benin time. */
describe('GET supply/user/{id}/export/xlsx', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let superAdmin: TestUser;
  let payer: TestUser;
  let other: TestUser;
  const refs: Record<'momo' | 'cancelled' | 'rejected' | 'validated', string> = {} as never;

  const command = async (user: TestUser, method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await app.inject({ method, url, headers: withKey(user), payload });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json() as { reference: string };
  };
  const supply = (accountType: 'MOBILE_MONEY' | 'BANK', amount: number, phone?: string) =>
    command(payer, 'POST', '/api/supply', {
      amount,
      walletId: payer.walletId,
      accountType,
      ...(accountType === 'BANK' ? { bank: 'Banque Atlantique Bénin' } : {}),
      ...(phone ? { phone } : {}),
    }).then((s) => s.reference);
  const get = (who: TestUser, url: string) =>
    app.inject({ method: 'GET', url, headers: who.headers });

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    payer = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    other = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    refs.momo = await supply('MOBILE_MONEY', 15_000, '96000001');
    refs.cancelled = await supply('MOBILE_MONEY', 2_500);
    await command(payer, 'POST', `/api/supply/cancel/${refs.cancelled}`);
    refs.rejected = await supply('BANK', 1_250_000);
    await command(superAdmin, 'POST', '/api/supply/reject-bank-supply', {
      reference: refs.rejected,
      reason: 'Aucun virement reçu',
    });
    refs.validated = await supply('BANK', 40_000);
    await command(superAdmin, 'POST', '/api/supply/validate-bank-supply', {
      reference: refs.validated,
    });
    for (const projector of walletProjectors) {
      await catchUp(testDb.db, projector, { decode: walletDecoder });
    }
  });
  afterAll(async () => {
    await app.close();
  });

  it('holds both tabs with French headers and labels, numbers, and Benin local dates with time', async () => {
    const res = await get(payer, `/api/supply/user/${payer.id}/export/xlsx`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="approvisionnements-\d{4}-\d{2}-\d{2}\.xlsx"/,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Approvisionnements')!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual([
      'Référence',
      'Moyen de paiement',
      'Banque',
      'Numéro mobile money',
      'Montant (FCFA)',
      'Statut',
      'Motif',
      'Date (heure du Bénin)',
      'Mis à jour (heure du Bénin)',
    ]);
    const byRef = new Map(rows.slice(1).map((r) => [r[0] as string, r]));
    expect(byRef.size).toBe(4);
    expect(byRef.get(refs.momo)!.slice(1, 7)).toEqual([
      'Mobile money',
      undefined,
      '01 96 00 00 01',
      15_000,
      'Nouveau',
      undefined,
    ]);
    expect(byRef.get(refs.cancelled)!.slice(1, 6)).toEqual([
      'Mobile money',
      undefined,
      undefined,
      2_500,
      'Annulée',
    ]);
    expect(byRef.get(refs.rejected)!.slice(1, 7)).toEqual([
      'Virement bancaire',
      'Banque Atlantique Bénin',
      undefined,
      1_250_000,
      'Rejetée',
      'Aucun virement reçu',
    ]);
    expect(byRef.get(refs.validated)![5]).toBe('Succès');
    // No raw code anywhere.
    const texts = rows.flat().filter((v): v is string => typeof v === 'string');
    for (const code of ['MOBILE_MONEY', 'BANK', 'INIT', 'FAILED', 'CANCELLED', 'REJECTED']) {
      expect(texts).not.toContain(code);
    }

    // Dates: Africa/Porto-Novo (UTC+1), with the time. exceljs reads the serial as UTC.
    const created = await testDb.db
      .selectFrom('wallet_supplies')
      .select(['created_at', 'updated_at'])
      .where('reference', '=', refs.rejected)
      .executeTakeFirstOrThrow();
    const cell = byRef.get(refs.rejected)![7] as Date;
    expect(cell).toBeInstanceOf(Date);
    expect(Math.abs(cell.getTime() - (created.created_at.getTime() + 3_600_000))).toBeLessThan(
      1_000,
    );
    const updated = byRef.get(refs.rejected)![8] as Date;
    expect(Math.abs(updated.getTime() - (created.updated_at.getTime() + 3_600_000))).toBeLessThan(
      1_000,
    );
    expect(sheet.getCell('H2').numFmt).toBe('dd/mm/yyyy hh:mm');
    expect(sheet.getCell('E2').numFmt).toBe('#,##0');
  });

  it('204 for a user without supplies; another user’s is 403; an admin may read it', async () => {
    expect((await get(other, `/api/supply/user/${other.id}/export/xlsx`)).statusCode).toBe(204);
    expect((await get(other, `/api/supply/user/${payer.id}/export/xlsx`)).statusCode).toBe(403);
    expect((await get(superAdmin, `/api/supply/user/${payer.id}/export/xlsx`)).statusCode).toBe(
      200,
    );
    expect((await app.inject({ url: `/api/supply/user/${payer.id}/export/xlsx` })).statusCode).toBe(
      401,
    );
    expect((await get(payer, '/api/supply/user/not-a-uuid/export/xlsx')).statusCode).toBe(400);
  });
});
