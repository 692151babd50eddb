import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../../../test-app.js';
import {
  countEvents,
  supplyState,
  walletState,
  walletUser,
  withKey,
  type TestUser,
} from './test-support.js';
import type { Database } from '../../../database.js';

describe('supplies: POST /api/supply, bank validation, sandbox widget and verification', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let superAdmin: TestUser;
  let admin: TestUser;
  let aggregator: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db, { env: { PUBLIC_URL: 'http://localhost:3000' } });
    superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    admin = await walletUser(app, testDb.db, 'ROLE_ADMIN');
    aggregator = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    other = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
  });
  afterAll(async () => {
    await app.close();
  });

  const supply = (user: TestUser, payload: Record<string, unknown>, key?: string) =>
    app.inject({ method: 'POST', url: '/api/supply', headers: withKey(user, key), payload });
  const validate = (user: TestUser, payload: Record<string, unknown>, key?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/supply/validate-bank-supply',
      headers: withKey(user, key),
      payload,
    });

  it('a bank supply answers its reference and the accepted bank’s account number (INIT)', async () => {
    const res = await supply(aggregator, {
      amount: 50_000,
      walletId: aggregator.walletId,
      accountType: 'BANK',
      bank: 'Banque Atlantique Bénin',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'INIT',
      amount: 50_000,
      paymentMethod: 'BANK',
      bankAccountNumber: { accountNumber: 'BJ0660100100000012345678901' },
      widget: null,
    });
    expect(body.reference).toMatch(/^APP-[A-Z2-9]{10}$/);
    expect((await supplyState(app, body.reference)).status).toBe('INIT');
  });

  it('bank mode requires a bank; the wallet must be mine (403); roles without top-up get 403', async () => {
    const noBank = await supply(aggregator, {
      amount: 1,
      walletId: aggregator.walletId,
      accountType: 'BANK',
    });
    expect(noBank.statusCode).toBe(400);
    expect(noBank.json().fields).toMatchObject({ bank: 'Ce champ est obligatoire' });
    const notMine = await supply(aggregator, {
      amount: 1,
      walletId: other.walletId,
      accountType: 'MOBILE_MONEY',
    });
    expect(notMine.statusCode).toBe(403);
    const grower = await walletUser(app, testDb.db, 'ROLE_GROWER');
    const byGrower = await supply(grower, {
      amount: 1,
      walletId: grower.walletId,
      accountType: 'MOBILE_MONEY',
    });
    expect(byGrower.statusCode).toBe(403);
    const badType = await supply(aggregator, {
      amount: 1,
      walletId: aggregator.walletId,
      accountType: 'CASH',
    });
    expect(badType.statusCode).toBe(400);
  });

  it('a super admin validates a bank supply by retyping its reference; validating again credits once', async () => {
    const { reference } = (
      await supply(aggregator, {
        amount: 20_000,
        walletId: aggregator.walletId,
        accountType: 'BANK',
        bank: 'BAB',
      })
    ).json();
    const before = (await walletState(app, aggregator.walletId)).balance;

    const mistyped = await validate(superAdmin, {
      supplyReference: reference,
      reference: reference.toLowerCase(),
    });
    expect(mistyped.statusCode).toBe(400);
    const unknown = await validate(superAdmin, { reference: 'APP-NOPE' });
    expect(unknown.statusCode).toBe(404);
    const byAdmin = await validate(admin, { reference });
    expect(byAdmin.statusCode).toBe(403);
    const byOwner = await validate(aggregator, { reference });
    expect(byOwner.statusCode).toBe(403);
    const byGet = await app.inject({
      method: 'GET',
      url: `/api/supply/validate-bank-supply/${reference}`,
      headers: withKey(admin),
    });
    expect(byGet.statusCode).toBe(403);

    const credited = await Promise.all(
      Array.from({ length: 5 }, () =>
        validate(superAdmin, { supplyReference: reference, reference }),
      ),
    );
    const viaGet = await app.inject({
      method: 'GET',
      url: `/api/supply/validate-bank-supply/${reference}`,
      headers: withKey(superAdmin),
    });
    for (const res of [...credited, viaGet]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ reference, status: 'SUCCESS', amount: 20_000 });
    }
    expect(credited.filter((r) => r.json().credited)).toHaveLength(1);
    expect((await walletState(app, aggregator.walletId)).balance).toBe(before + 20_000);
    expect((await supplyState(app, reference)).status).toBe('SUCCESS');
  });

  it('only INIT or PENDING bank supplies are validated; a mobile-money supply is not (422)', async () => {
    const momo = (
      await supply(aggregator, {
        amount: 1_000,
        walletId: aggregator.walletId,
        accountType: 'MOBILE_MONEY',
      })
    ).json();
    const res = await validate(superAdmin, { reference: momo.reference });
    expect(res.statusCode).toBe(422);
  });

  it('POST /supply repeated 5× with one key issues one reference', async () => {
    const before = await countEvents(testDb.db, 'SupplyInitiated');
    const payload = { amount: 3_000, walletId: aggregator.walletId, accountType: 'CARD' };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => supply(aggregator, payload, 'supply-key')),
    );
    const refs = new Set(answers.map((r) => r.json().reference));
    expect(answers.every((r) => r.statusCode === 201)).toBe(true);
    expect(refs.size).toBe(1);
    expect(await countEvents(testDb.db, 'SupplyInitiated')).toBe(before + 1);
  });

  it('sandbox widget: page → Payer → verify credits once; verifying again changes nothing', async () => {
    const created = (
      await supply(aggregator, {
        amount: 12_345,
        walletId: aggregator.walletId,
        accountType: 'MOBILE_MONEY',
      })
    ).json();
    expect(created.widget).toMatchObject({
      provider: 'sandbox',
      amount: 12_345,
      url: `http://localhost:3000/api/sandbox/pay/${created.reference}`,
    });
    const page = await app.inject({
      method: 'GET',
      url: `/api/sandbox/pay/${created.reference}?returnTo=/approvisionnements`,
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('lang="fr"');
    expect(page.body).toContain('12\u202f345 F CFA');
    expect(page.body).toContain(created.reference);
    expect(page.body).toMatch(/<button[^>]*value="SUCCESS"[^>]*>Payer<\/button>/);
    expect(page.body).toMatch(/<button[^>]*value="FAILED"[^>]*>Refuser<\/button>/);

    const paid = await app.inject({
      method: 'POST',
      url: `/api/sandbox/pay/${created.reference}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=SUCCESS&returnTo=%2Fapprovisionnements%3Fx%3D1',
    });
    expect(paid.statusCode).toBe(303);
    const location = new URL(paid.headers.location as string, 'http://localhost');
    expect(location.pathname).toBe('/approvisionnements');
    expect(location.searchParams.get('x')).toBe('1');
    expect(location.searchParams.get('reference')).toBe(created.reference);
    expect(location.searchParams.get('status')).toBe('SUCCESS');
    const transactionId = location.searchParams.get('transactionId')!;
    expect((await supplyState(app, created.reference)).status).toBe('PENDING');

    const before = (await walletState(app, aggregator.walletId)).balance;
    const verify = () =>
      app.inject({
        method: 'GET',
        url: `/api/supply/verify/${transactionId}`,
        headers: withKey(aggregator),
      });
    const first = await verify();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      reference: created.reference,
      status: 'SUCCESS',
      credited: true,
      amount: 12_345,
    });
    const again = await Promise.all([verify(), verify(), verify()]);
    for (const res of again)
      expect(res.json()).toMatchObject({ status: 'SUCCESS', credited: false });
    expect((await walletState(app, aggregator.walletId)).balance).toBe(before + 12_345);

    // Another user cannot verify (and so learn about) my supply.
    const stranger = await app.inject({
      method: 'GET',
      url: `/api/supply/verify/${transactionId}`,
      headers: withKey(other),
    });
    expect(stranger.statusCode).toBe(403);
  });

  it('sandbox widget: Refuser → verify marks the supply FAILED and credits nothing', async () => {
    const created = (
      await supply(aggregator, { amount: 999, walletId: aggregator.walletId, accountType: 'CARD' })
    ).json();
    const refused = await app.inject({
      method: 'POST',
      url: `/api/sandbox/pay/${created.reference}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=FAILED&returnTo=https%3A%2F%2Fevil.example%2F',
    });
    expect(refused.statusCode).toBe(303);
    const location = new URL(refused.headers.location as string, 'http://localhost');
    expect(location.pathname).toBe('/approvisionnements'); // never redirects off-site
    const before = (await walletState(app, aggregator.walletId)).balance;
    const res = await app.inject({
      method: 'GET',
      url: `/api/supply/verify/${location.searchParams.get('transactionId')}`,
      headers: withKey(aggregator),
    });
    expect(res.json()).toMatchObject({ status: 'FAILED', credited: false });
    expect((await walletState(app, aggregator.walletId)).balance).toBe(before);
  });

  it('the widget page of an unknown reference is a 404 page; verify of an unknown id is 404', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/sandbox/pay/APP-UNKNOWN' });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Paiement introuvable');
    const res = await app.inject({
      method: 'GET',
      url: '/api/supply/verify/sbx_unknown',
      headers: withKey(aggregator),
    });
    expect(res.statusCode).toBe(404);
  });
});
