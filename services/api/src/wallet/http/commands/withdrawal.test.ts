import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../../../test-app.js';
import {
  countEvents,
  fund,
  walletState,
  walletUser,
  withdrawalState,
  withKey,
  type TestUser,
} from './test-support.js';
import type { Database } from '../../../database.js';

describe('POST /api/wallet/make-debit/{id} and POST /api/financement', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let superAdmin: TestUser;
  let aggregator: TestUser;
  let failing: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    aggregator = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', {
      bank: 'BJ0660100100000099999999901',
    });
    // The sandbox refuses payouts to destinations ending in 0000.
    failing = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { momo: '+2290197000000' });
    other = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { momo: null });
    await fund(app, aggregator, superAdmin, 100_000);
    await fund(app, failing, superAdmin, 10_000);
  });
  afterAll(async () => {
    await app.close();
  });

  const debit = (user: TestUser, id: string, payload: Record<string, unknown>, key?: string) =>
    app.inject({
      method: 'POST',
      url: `/api/wallet/make-debit/${id}`,
      headers: withKey(user, key),
      payload,
    });

  it('debits at once (DEBIT PENDING); the payout job then completes it (SUCCESS)', async () => {
    const res = await debit(aggregator, aggregator.id, {
      paiementMethod: 'MOBILE_MONEY',
      amount: 30_000,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      operationType: 'DEBIT',
      status: 'PENDING',
      amount: 30_000,
      paiementMethod: 'MOBILE_MONEY',
      destination: '+2290197123456',
    });
    expect((await walletState(app, aggregator.walletId)).balance).toBe(70_000);
    expect((await withdrawalState(app, body.withdrawalId)).status).toBe('PENDING');
    expect(await app.wallet.runner.runDue()).toBeGreaterThanOrEqual(1);
    expect((await withdrawalState(app, body.withdrawalId)).status).toBe('SUCCESS');
    expect((await walletState(app, aggregator.walletId)).balance).toBe(70_000);
    expect(await app.wallet.runner.store.list()).toEqual([]);
  });

  it('a BANK withdrawal pays the profile’s bank account; the wallet id works as {id}', async () => {
    const res = await debit(aggregator, aggregator.walletId, {
      paiementMethod: 'BANK',
      amount: 1_000,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().destination).toBe('BJ0660100100000099999999901');
    await app.wallet.runner.runDue();
    expect((await withdrawalState(app, res.json().withdrawalId)).status).toBe('SUCCESS');
  });

  it('a payout the provider refuses becomes FAILED with a REFUND back to the wallet', async () => {
    const res = await debit(failing, failing.id, { paiementMethod: 'MOBILE_MONEY', amount: 4_000 });
    expect(res.statusCode).toBe(201);
    expect((await walletState(app, failing.walletId)).balance).toBe(6_000);
    await app.wallet.runner.runDue();
    const w = await withdrawalState(app, res.json().withdrawalId);
    expect(w.status).toBe('FAILED');
    expect((await walletState(app, failing.walletId)).balance).toBe(10_000);
  });

  it('errors: 422 with missingAmount, 422 without a bank account, 403 on another wallet, 400', async () => {
    const short = await debit(failing, failing.id, {
      paiementMethod: 'MOBILE_MONEY',
      amount: 10_001,
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().missingAmount).toBe(1);
    const noBank = await debit(failing, failing.id, { paiementMethod: 'BANK', amount: 1 });
    expect(noBank.statusCode).toBe(422);
    const notMine = await debit(other, aggregator.id, {
      paiementMethod: 'MOBILE_MONEY',
      amount: 1,
    });
    expect(notMine.statusCode).toBe(403);
    const notMineWallet = await debit(other, aggregator.walletId, {
      paiementMethod: 'MOBILE_MONEY',
      amount: 1,
    });
    expect(notMineWallet.statusCode).toBe(403);
    const bad = await debit(aggregator, aggregator.id, { paiementMethod: 'CASH', amount: -5 });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(
      expect.arrayContaining(['paiementMethod', 'amount']),
    );
  });

  it('repeated 5× with one Idempotency-Key: one debit and one payout', async () => {
    const before = await countEvents(testDb.db, 'WithdrawalDebited');
    const balance = (await walletState(app, aggregator.walletId)).balance;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        debit(
          aggregator,
          aggregator.id,
          { paiementMethod: 'MOBILE_MONEY', amount: 500 },
          'debit-k',
        ),
      ),
    );
    expect(new Set(answers.map((r) => r.json().withdrawalId)).size).toBe(1);
    expect(answers.every((r) => r.statusCode === 201)).toBe(true);
    expect(await countEvents(testDb.db, 'WithdrawalDebited')).toBe(before + 1);
    expect((await walletState(app, aggregator.walletId)).balance).toBe(balance - 500);
    const completedBefore = await countEvents(testDb.db, 'WithdrawalCompleted');
    await app.wallet.runner.runDue();
    await app.wallet.runner.runDue();
    expect(await countEvents(testDb.db, 'WithdrawalCompleted')).toBe(completedBefore + 1);
  });

  describe('financing', () => {
    const financement = (user: TestUser, payload: Record<string, unknown>, key?: string) =>
      app.inject({
        method: 'POST',
        url: '/api/financement',
        headers: withKey(user, key),
        payload,
      });

    it('an aggregator funds another aggregator (STANDARD); repeated 5× with one key, once', async () => {
      const from = (await walletState(app, aggregator.walletId)).balance;
      const to = (await walletState(app, other.walletId)).balance;
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          financement(aggregator, { aggregatorId: other.id, amount: 2_500 }, 'fin-k'),
        ),
      );
      for (const res of answers) {
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({
          operationType: 'STANDARD',
          status: 'SUCCESS',
          amount: 2_500,
          aggregator: { id: other.id },
        });
      }
      expect(new Set(answers.map((r) => r.json().reference)).size).toBe(1);
      expect((await walletState(app, aggregator.walletId)).balance).toBe(from - 2_500);
      expect((await walletState(app, other.walletId)).balance).toBe(to + 2_500);
    });

    it('only aggregators fund (403), only aggregators are funded (400), never oneself, 422 when short', async () => {
      const grower = await walletUser(app, testDb.db, 'ROLE_GROWER');
      const byAdmin = await financement(superAdmin, { aggregatorId: other.id, amount: 1 });
      expect(byAdmin.statusCode).toBe(403);
      const toGrower = await financement(aggregator, { aggregatorId: grower.id, amount: 1 });
      expect(toGrower.statusCode).toBe(400);
      const self = await financement(aggregator, { aggregatorId: aggregator.id, amount: 1 });
      expect(self.statusCode).toBe(400);
      const unknown = await financement(aggregator, {
        aggregatorId: '00000000-0000-4000-8000-000000000000',
        amount: 1,
      });
      expect(unknown.statusCode).toBe(404);
      const short = await financement(other, { aggregatorId: aggregator.id, amount: 1_000_000 });
      expect(short.statusCode).toBe(422);
      expect(short.json().missingAmount).toBe(1_000_000 - 2_500);
    });
  });
});
