import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../../test-app.js';
import type { PaymentProvider, PayoutRequest, ProviderTransaction } from '../providers/port.js';
import { ProviderUnavailableError } from '../providers/port.js';
import {
  fund,
  supplyState,
  walletState,
  walletUser,
  withdrawalState,
  withKey,
  type TestUser,
} from '../http/commands/test-support.js';
import type { Database } from '../../database.js';

/** A provider whose answers the test scripts: each call takes the next answer. */
function scriptedProvider(base: PaymentProvider) {
  const verifications: (ProviderTransaction | 'down')[] = [];
  const payouts: ('SUCCESS' | 'FAILED' | 'PENDING' | 'down')[] = [];
  const calls = { verify: 0, payout: [] as PayoutRequest[] };
  const provider: PaymentProvider = {
    name: base.name,
    widgetConfig: base.widgetConfig,
    async verify(transactionId) {
      calls.verify++;
      const next = verifications.shift() ?? 'down';
      if (next === 'down') throw new ProviderUnavailableError('sandbox', 'scripted outage');
      return { ...next, transactionId };
    },
    async payout(request) {
      calls.payout.push(request);
      const next = payouts.shift() ?? 'down';
      if (next === 'down') throw new ProviderUnavailableError('sandbox', 'scripted outage');
      return { status: next, providerId: 'p-1' };
    },
    async checkPayout(_providerId, request) {
      return this.payout(request);
    },
  };
  return { provider, verifications, payouts, calls };
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('background jobs: supply checks and payouts retried until final', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let superAdmin: TestUser;
  let aggregator: TestUser;
  let script: ReturnType<typeof scriptedProvider>;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    aggregator = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    await fund(app, aggregator, superAdmin, 50_000);
    script = scriptedProvider(app.wallet.deps.provider);
    app.wallet.deps.provider = script.provider;
  });
  afterAll(async () => {
    await app.wallet.loop?.stop();
    await app.close();
  });

  it('verify with the provider down answers PENDING; the background check credits once it answers', async () => {
    const { reference } = (
      await app.inject({
        method: 'POST',
        url: '/api/supply',
        headers: withKey(aggregator),
        payload: { amount: 7_000, walletId: aggregator.walletId, accountType: 'MOBILE_MONEY' },
      })
    ).json();
    script.verifications.push('down');
    const res = await app.inject({
      method: 'GET',
      url: `/api/supply/verify/kk-1?reference=${reference}`,
      headers: withKey(aggregator),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'PENDING', credited: false });
    const jobs = await app.wallet.runner.store.list();
    expect(jobs).toEqual([
      expect.objectContaining({ id: `verify:${reference}`, kind: 'VERIFY_SUPPLY' }),
    ]);

    // Due later (backoff): running due jobs now does nothing.
    expect(await app.wallet.runner.runDue()).toBe(0);
    const later = new Date(Date.now() + 60 * 60_000);
    // Still down: retried with a longer delay.
    script.verifications.push('down');
    expect(await app.wallet.runner.runDue(later)).toBe(1);
    expect((await app.wallet.runner.store.list())[0]).toMatchObject({ attempts: 1 });
    // The provider says PENDING: still not final.
    script.verifications.push({ status: 'PENDING', amount: 7_000, reference, transactionId: '' });
    await app.wallet.runner.runDue(new Date(Date.now() + 2 * 60 * 60_000));
    expect((await supplyState(app, reference)).status).toBe('PENDING');
    // Then SUCCESS: credited, job gone.
    const before = (await walletState(app, aggregator.walletId)).balance;
    script.verifications.push({ status: 'SUCCESS', amount: 7_000, reference, transactionId: '' });
    await app.wallet.runner.runDue(new Date(Date.now() + 3 * 60 * 60_000));
    expect((await supplyState(app, reference)).status).toBe('SUCCESS');
    expect((await walletState(app, aggregator.walletId)).balance).toBe(before + 7_000);
    expect(await app.wallet.runner.store.list()).toEqual([]);
  });

  it('a payout with the provider failing then succeeding: retried by the in-process loop, paid once', async () => {
    const runner = app.wallet.runner as unknown as { baseDelayMs: number };
    runner.baseDelayMs = 20; // fast retries for the test
    script.payouts.push('down', 'PENDING', 'SUCCESS');
    const res = await app.inject({
      method: 'POST',
      url: `/api/wallet/make-debit/${aggregator.id}`,
      headers: withKey(aggregator),
      payload: { paiementMethod: 'MOBILE_MONEY', amount: 1_500 },
    });
    expect(res.statusCode).toBe(201);
    const { withdrawalId } = res.json();
    const balance = (await walletState(app, aggregator.walletId)).balance;
    app.wallet.loop!.start();
    await until(
      async () => (await withdrawalState(app, withdrawalId)).status === 'SUCCESS',
      'the payout',
    );
    expect(script.calls.payout).toHaveLength(3);
    expect(script.calls.payout.every((p) => p.reference === withdrawalId)).toBe(true);
    expect((await walletState(app, aggregator.walletId)).balance).toBe(balance);
    await until(async () => (await app.wallet.runner.store.list()).length === 0, 'the job row');
  });

  it('a pending withdrawal whose job row was lost is recovered from the ledger at start-up', async () => {
    await app.wallet.loop!.stop();
    script.payouts.push('FAILED');
    const res = await app.inject({
      method: 'POST',
      url: `/api/wallet/make-debit/${aggregator.id}`,
      headers: withKey(aggregator),
      payload: { paiementMethod: 'MOBILE_MONEY', amount: 2_000 },
    });
    const { withdrawalId } = res.json();
    await testDb.db.deleteFrom('wallet_jobs').execute(); // as if the process died before the insert
    const balance = (await walletState(app, aggregator.walletId)).balance;
    // A second API process on the same database starts and recovers the payout.
    const second = await buildTestApp(testDb.db);
    second.wallet.deps.provider = script.provider;
    expect(await second.wallet.runner.recover()).toBe(1);
    await second.wallet.runner.runDue();
    expect((await withdrawalState(app, withdrawalId)).status).toBe('FAILED');
    expect((await walletState(app, aggregator.walletId)).balance).toBe(balance + 2_000);
    expect(await second.wallet.runner.recover()).toBe(0);
    await second.close();
  });
});
