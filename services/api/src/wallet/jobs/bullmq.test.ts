import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger, parseConfig } from '@filiere/platform';
import { describeWithRedis, useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../../test-app.js';
import {
  fund,
  walletState,
  walletUser,
  withdrawalState,
  withKey,
  type TestUser,
} from '../http/commands/test-support.js';
import { makeWithdrawal } from '../commands/wallet-commands.js';
import { walletCatalogue } from '../read-model/test-support.js';
import { startWalletJobWorker, type WalletJobWorker } from './bullmq.js';
import type { Database } from '../../database.js';

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describeWithRedis('wallet jobs through BullMQ (REDIS_URL): the worker pays out', (redisUrl) => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let worker: WalletJobWorker;
  let superAdmin: TestUser;
  let aggregator: TestUser;
  let refused: TestUser;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db, { env: { REDIS_URL: redisUrl } });
    expect(app.wallet.loop).toBeUndefined();
    superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    aggregator = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    refused = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { momo: '+2290199990000' });
    await fund(app, aggregator, superAdmin, 10_000);
    await fund(app, refused, superAdmin, 10_000);
    worker = await startWalletJobWorker({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', REDIS_URL: redisUrl }),
      db: testDb.db,
      redisUrl,
      logger: createLogger('silent', false),
      catalogue: walletCatalogue,
      sweepMs: 60_000, // only BullMQ wake-ups run the jobs in this test
    });
  });
  afterAll(async () => {
    await worker?.close();
    await app?.close();
  });

  it('a withdrawal made on the API is paid out (or refunded) by the worker process', async () => {
    const debit = (user: TestUser, amount: number) =>
      app.inject({
        method: 'POST',
        url: `/api/wallet/make-debit/${user.id}`,
        headers: withKey(user),
        payload: { paiementMethod: 'MOBILE_MONEY', amount },
      });
    const ok = (await debit(aggregator, 4_000)).json();
    const ko = (await debit(refused, 3_000)).json();
    await until(
      async () => (await withdrawalState(app, ok.withdrawalId)).status === 'SUCCESS',
      'the payout',
    );
    await until(
      async () => (await withdrawalState(app, ko.withdrawalId)).status === 'FAILED',
      'the refund',
    );
    expect((await walletState(app, aggregator.walletId)).balance).toBe(6_000);
    expect((await walletState(app, refused.walletId)).balance).toBe(10_000);
  });

  it('a withdrawal left without its payout job (API killed after the commit) is recovered by a running worker', async () => {
    const config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', REDIS_URL: redisUrl });
    const running = await startWalletJobWorker({
      config,
      db: testDb.db,
      redisUrl,
      logger: createLogger('silent', false),
      catalogue: walletCatalogue,
      sweepMs: 50,
      recoverEveryMs: 200,
    });
    try {
      // The debit commits, then the process dies before writing the job: no schedulePayout.
      const lost = {
        schedulePayout: async () => undefined,
        scheduleSupplyCheck: async () => undefined,
      };
      const orphan = await makeWithdrawal(
        { ...app.wallet.deps, jobs: lost },
        // The signed-in user as the auth guard loads it for the route.
        await app.userOfToken(aggregator.headers.authorization!.slice('Bearer '.length)),
        aggregator.id,
        { paiementMethod: 'MOBILE_MONEY', amount: 1_000 },
        'orphaned-withdrawal',
      );
      await until(
        async () => (await withdrawalState(app, orphan.withdrawalId)).status === 'SUCCESS',
        'the recovered payout',
      );
      expect((await walletState(app, aggregator.walletId)).balance).toBe(5_000);
    } finally {
      await running.close();
    }
  });
});
