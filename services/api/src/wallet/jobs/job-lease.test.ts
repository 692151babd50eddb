import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../../test-app.js';
import type { PaymentProvider } from '../providers/port.js';
import { fund, walletUser, withKey } from '../routes/test-support.js';
import { WalletJobRunner } from './job-runner.js';

describe('wallet jobs and their lease', () => {
  const testDb = useTestDatabase();
  let app: FastifyInstance;
  const payouts = new Map<string, number>();

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    const superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    const user = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    await fund(app, user, superAdmin, 10_000);
    for (const amount of [1_000, 2_000]) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/wallet/make-debit/${user.id}`,
        headers: withKey(user),
        payload: { paiementMethod: 'MOBILE_MONEY', amount },
      });
      expect(res.statusCode).toBe(201);
    }
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a job waiting behind a slow payout is not run by two workers (each withdrawal paid once)', async () => {
    // Payouts of 500 ms, leases of 700 ms: one job fits its lease, two in a row do not.
    const slow: PaymentProvider = {
      ...app.wallet.deps.provider,
      async payout(request) {
        payouts.set(request.reference, (payouts.get(request.reference) ?? 0) + 1);
        await sleep(500);
        return { status: 'SUCCESS', providerId: `p-${request.reference}` };
      },
    };
    const deps = { ...app.wallet.deps, provider: slow };
    const logger = createLogger('silent', false);
    const first = new WalletJobRunner(() => deps, testDb.db, logger, { leaseMs: 700 });
    const second = new WalletJobRunner(() => deps, testDb.db, logger, { leaseMs: 700 });
    await Promise.all([first.runDue(), sleep(800).then(() => second.runDue())]);
    expect([...payouts.values()]).toEqual([1, 1]);
  });
});
