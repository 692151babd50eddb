import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../../test-app.js';
import type { PaymentProvider } from '../providers/port.js';
import { fund, walletUser, withKey } from '../http/commands/test-support.js';
import { WalletJobRunner } from './job-runner.js';
import { JobStore } from './job-store.js';
import type { Database } from '../../database.js';

describe('wallet jobs and their lease', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let user: Awaited<ReturnType<typeof walletUser>>;
  const payouts = new Map<string, number>();
  const logger = createLogger('silent', false);
  const withdraw = async (amount: number): Promise<string> => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/wallet/make-debit/${user.id}`,
      headers: withKey(user),
      payload: { paiementMethod: 'MOBILE_MONEY', amount },
    });
    expect(res.statusCode).toBe(201);
    return res.json().withdrawalId as string;
  };

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    const superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    user = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    await fund(app, user, superAdmin, 10_000);
    for (const amount of [1_000, 2_000]) await withdraw(amount);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a job waiting behind a slow payout is not run by two workers (each withdrawal paid once)', async () => {
    // Payouts of 1.5 s, leases of 2.5 s: one job fits its lease, two in a row do not. The
    // second runner comes 0.2 s after a lease taken at the first runner's start ran out; the
    // first runner's batch has 1 s beyond its payout to record it (a loaded machine's
    // statements), where 0.2 s was once too little and made it pay each job twice.
    const slow: PaymentProvider = {
      ...app.wallet.deps.provider,
      async payout(request) {
        payouts.set(request.reference, (payouts.get(request.reference) ?? 0) + 1);
        await sleep(1_500);
        return { status: 'SUCCESS', providerId: `p-${request.reference}` };
      },
    };
    const deps = { ...app.wallet.deps, provider: slow };
    const first = new WalletJobRunner(() => deps, testDb.db, logger, { leaseMs: 2_500 });
    const second = new WalletJobRunner(() => deps, testDb.db, logger, { leaseMs: 2_500 });
    await Promise.all([first.runDue(), sleep(2_700).then(() => second.runDue())]);
    expect([...payouts.values()]).toEqual([1, 1]);
  });

  it('a job run again for a withdrawal another process settled pays nothing (state read from the log)', async () => {
    const id = await withdraw(1_500);
    // This process's pipeline has the withdrawal cached PENDING (it just decided the debit);
    // another API process, with its own pipeline, pays and settles it.
    const other = await buildTestApp(testDb.db);
    try {
      let paid = 0;
      const pays: PaymentProvider = {
        ...other.wallet.deps.provider,
        async payout(request) {
          if (request.reference === id) paid++;
          return { status: 'SUCCESS', providerId: `p-${request.reference}` };
        },
      };
      const otherDeps = { ...other.wallet.deps, provider: pays };
      await new WalletJobRunner(() => otherDeps, testDb.db, logger).runDue();
      expect(paid).toBe(1);
      // The job comes back (a recovery that read the ledger just before the settlement).
      await new JobStore(testDb.db).add({
        id: `payout:${id}`,
        kind: 'PAYOUT',
        payload: { withdrawalId: id },
      });
      const deps = { ...app.wallet.deps, provider: pays };
      await new WalletJobRunner(() => deps, testDb.db, logger).runDue();
      expect(paid).toBe(1);
      expect(await new JobStore(testDb.db).list()).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('a runner whose lease was taken over stops before it starts the payout', async () => {
    const id = await withdraw(2_500);
    const started: string[] = [];
    // The provider creates the payout, then (slowly, past the lease) hands its id over to be
    // stored before the start; only a runner still holding the job may start it.
    const provider = (delayMs: number, name: string): PaymentProvider => ({
      ...app.wallet.deps.provider,
      async payout(request, progress) {
        await sleep(delayMs);
        await progress?.created(`${name}-${request.reference}`);
        started.push(name);
        return { status: 'SUCCESS', providerId: `${name}-${request.reference}` };
      },
    });
    const late = { ...app.wallet.deps, provider: provider(600, 'late') };
    const prompt = { ...app.wallet.deps, provider: provider(0, 'prompt') };
    const first = new WalletJobRunner(() => late, testDb.db, logger, { leaseMs: 300 });
    const second = new WalletJobRunner(() => prompt, testDb.db, logger, { leaseMs: 5_000 });
    await Promise.all([first.runDue(), sleep(400).then(() => second.runDue())]);
    expect(started).toEqual(['prompt']);
    expect(id).toBeTruthy();
  });

  it('a runner taken over stops before the payout while the job it lost is still there', async () => {
    // As above, but the new claim's payout is PENDING: the job row stays (its payout id, a
    // retry time), so only the claim token keeps the late runner from writing and paying.
    const id = await withdraw(1_200);
    const started: string[] = [];
    const provider = (delayMs: number, name: string, status: 'SUCCESS' | 'PENDING') =>
      ({
        ...app.wallet.deps.provider,
        async payout(request, progress) {
          await sleep(delayMs);
          await progress?.created(`${name}-${request.reference}`);
          started.push(name);
          return { status, providerId: `${name}-${request.reference}` };
        },
      }) satisfies PaymentProvider;
    const late = { ...app.wallet.deps, provider: provider(600, 'late', 'SUCCESS') };
    const prompt = { ...app.wallet.deps, provider: provider(0, 'prompt', 'PENDING') };
    const first = new WalletJobRunner(() => late, testDb.db, logger, { leaseMs: 300 });
    const second = new WalletJobRunner(() => prompt, testDb.db, logger, { leaseMs: 5_000 });
    await Promise.all([first.runDue(), sleep(400).then(() => second.runDue())]);
    expect(started).toEqual(['prompt']);
    const job = await testDb.db
      .selectFrom('wallet_jobs')
      .select(['payload', 'attempts'])
      .where('id', '=', `payout:${id}`)
      .executeTakeFirstOrThrow();
    expect(job.payload).toEqual({ withdrawalId: id, providerId: `prompt-${id}` });
    expect(job.attempts).toBe(1);
  });

  it('due payouts are claimed in one batch and asked of the provider together, each paid once', async () => {
    const ids = [await withdraw(300), await withdraw(400), await withdraw(500)];
    let inFlight = 0;
    let most = 0;
    const paid = new Map<string, number>();
    const provider: PaymentProvider = {
      ...app.wallet.deps.provider,
      async payout(request, progress) {
        inFlight++;
        most = Math.max(most, inFlight);
        await sleep(200);
        await progress?.created(`batch-${request.reference}`);
        paid.set(request.reference, (paid.get(request.reference) ?? 0) + 1);
        inFlight--;
        return { status: 'SUCCESS', providerId: `batch-${request.reference}` };
      },
    };
    const deps = { ...app.wallet.deps, provider };
    const runner = new WalletJobRunner(() => deps, testDb.db, logger);
    await runner.runDue();
    // All asked together: paid one after another, no two would ever be in flight.
    expect(most).toBe(ids.length);
    expect(ids.map((id) => paid.get(id))).toEqual([1, 1, 1]);
    const left = await new JobStore(testDb.db).list();
    expect(left.filter((job) => ids.some((id) => job.id === `payout:${id}`))).toEqual([]);
    await runner.runDue(new Date(Date.now() + 60 * 60_000));
    expect(ids.map((id) => paid.get(id))).toEqual([1, 1, 1]);
  });
});
