import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../../test-app.js';
import { fund, walletUser, withKey, type TestUser } from '../http/commands/test-support.js';
import type { Database } from '../../database.js';
import { WalletJobRunner } from './job-runner.js';

/**
 * The payout recovery sweep reads the whole log at its first run and every `fullSweepEvery`
 * sweeps; between them only the withdrawals appended since the previous sweep began (less
 * `sweepMargin` positions). Every withdrawal whose job row was lost still gets it back: the
 * next sweep finds a new one, and a full sweep any other.
 */
describe('payout recovery: incremental sweeps between full ones', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let aggregator: TestUser;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.wallet.loop?.stop();
    const superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    aggregator = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    await fund(app, aggregator, superAdmin, 50_000);
  });
  afterAll(async () => {
    await app.close();
  });

  /** A withdrawal whose payout job row is then lost (as if the process died before it). */
  async function withdrawalWithoutJob(amount: number): Promise<string> {
    const res = await app.inject({
      method: 'POST',
      url: `/api/wallet/make-debit/${aggregator.id}`,
      headers: withKey(aggregator),
      payload: { paiementMethod: 'MOBILE_MONEY', amount },
    });
    expect(res.statusCode).toBe(201);
    await testDb.db.deleteFrom('wallet_jobs').execute();
    return res.json().withdrawalId as string;
  }
  const jobs = async () =>
    (await testDb.db.selectFrom('wallet_jobs').select('id').orderBy('id').execute()).map(
      (j) => j.id,
    );

  it('a sweep finds the withdrawals appended since the last one; a full sweep finds every one', async () => {
    const runner = new WalletJobRunner(
      () => app.wallet.deps,
      testDb.db,
      createLogger('silent', false),
      {
        fullSweepEvery: 3,
        sweepMargin: 0,
      },
    );
    const first = await withdrawalWithoutJob(1_000);
    expect(await runner.recover()).toBe(1); // the process's first sweep reads the whole log
    expect(await jobs()).toEqual([`payout:${first}`]);

    // The first job is lost again (a stand-in for one the incremental sweeps no longer read)
    // and a second withdrawal loses its own: the next sweep reads only what came after.
    const second = await withdrawalWithoutJob(2_000);
    expect(await runner.recover()).toBe(1);
    expect(await jobs()).toEqual([`payout:${second}`]);
    expect(await runner.recover()).toBe(0);

    // The third sweep since the full one reads the whole log again.
    expect(await runner.recover()).toBe(1);
    expect(await jobs()).toEqual([`payout:${first}`, `payout:${second}`].sort());
  });

  it('a margin reads again the positions just behind the previous sweep', async () => {
    const runner = new WalletJobRunner(
      () => app.wallet.deps,
      testDb.db,
      createLogger('silent', false),
      {
        fullSweepEvery: 100,
        sweepMargin: 1_000,
      },
    );
    const lost = await withdrawalWithoutJob(3_000);
    await runner.recover(); // full: every pending withdrawal gets its job back
    await testDb.db.deleteFrom('wallet_jobs').execute();
    // Within the margin of the previous sweep's head: found again by an incremental sweep.
    expect(await runner.recover()).toBeGreaterThanOrEqual(1);
    expect(await jobs()).toContain(`payout:${lost}`);
  });
});
