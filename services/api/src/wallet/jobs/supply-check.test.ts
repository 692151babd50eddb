import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { narrowDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../../test-app.js';
import { recordSandboxPayment } from '../providers/sandbox.js';
import { PgSandboxStore } from '../sandbox/pg-sandbox-store.js';
import { projectWallet } from '../read-model/test-support.js';
import {
  countEvents,
  fund,
  supplyState,
  walletState,
  walletUser,
  withKey,
  type TestUser,
} from '../http/commands/test-support.js';
import { abandonReason } from './job-runner.js';
import type { Database } from '../../database.js';
import type { WalletDb } from '../tables.js';

const MINUTE = 60_000;
/** The runner's clock, moved forward: jobs due by then run, abandon times passed by then count. */
const inMs = (ms: number) => new Date(Date.now() + ms);

describe('the background supply check: a payment no page reports is credited, an unpaid supply given up', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let aggregator: TestUser;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    const superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    aggregator = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    await fund(app, aggregator, superAdmin, 10_000);
  });
  afterAll(async () => {
    await app.wallet.loop?.stop();
    await app.close();
  });

  /** The sandbox provider's own records (what its widget page writes). */
  const sandbox = () => new PgSandboxStore(narrowDb<WalletDb>()(testDb.db));

  async function createSupply(amount: number): Promise<string> {
    const res = await app.inject({
      method: 'POST',
      url: '/api/supply',
      headers: withKey(aggregator),
      payload: { amount, walletId: aggregator.walletId, accountType: 'MOBILE_MONEY' },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ reference: string }>().reference;
  }

  const credits = async (reference: string) =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from events
          where type = 'SupplyCredited' and data->>'reference' = ${reference}`.execute(testDb.db)
      ).rows[0]!.n,
    );

  const verify = (transactionId: string, reference: string) =>
    app.inject({
      method: 'GET',
      url: `/api/supply/verify/${transactionId}?reference=${reference}`,
      headers: withKey(aggregator),
    });

  it('paid on the widget page, then the page is lost: credited once with no verify call', async () => {
    await projectWallet(testDb.db);
    const reference = await createSupply(4_000);
    const before = (await walletState(app, aggregator.walletId)).balance;
    // The payer pays on the sandbox widget; the redirect back to the app never loads.
    const paid = await app.inject({
      method: 'POST',
      url: `/api/sandbox/pay/${reference}`,
      payload: { outcome: 'SUCCESS' },
    });
    expect(paid.statusCode).toBe(303);
    expect((await supplyState(app, reference)).status).toBe('PENDING');

    await app.wallet.runner.runDue(inMs(5_000));
    expect((await supplyState(app, reference)).status).toBe('SUCCESS');
    expect((await walletState(app, aggregator.walletId)).balance).toBe(before + 4_000);
    expect(await credits(reference)).toBe(1);
    expect(await app.wallet.runner.store.list()).toEqual([]);
    // The payer's open list hears of it: its supplies and its wallet are pushed to it.
    const pushes = await projectWallet(testDb.db);
    expect(pushes).toContainEqual(
      expect.objectContaining({ type: 'supplies.updated', userIds: [aggregator.id] }),
    );

    // The page's verify, arriving late, changes nothing.
    const transactionId = new URL(paid.headers.location!, 'http://x').searchParams.get(
      'transactionId',
    )!;
    const late = await verify(transactionId, reference);
    expect(late.json()).toMatchObject({ status: 'SUCCESS', credited: false });
    await app.wallet.runner.runDue(inMs(60 * MINUTE));
    expect(await credits(reference)).toBe(1);
    expect((await walletState(app, aggregator.walletId)).balance).toBe(before + 4_000);
  });

  it('paid at the provider, which the server was never told of: found by its reference and credited once', async () => {
    const reference = await createSupply(3_000);
    const before = (await walletState(app, aggregator.walletId)).balance;
    // The provider holds a payment for the reference; no widget answer reached any page.
    await recordSandboxPayment(sandbox(), {
      reference,
      amount: 3_000,
      outcome: 'SUCCESS',
    });
    expect((await supplyState(app, reference)).status).toBe('INIT');
    // Its check was scheduled when the supply was created.
    expect(await app.wallet.runner.store.list()).toEqual([
      expect.objectContaining({ id: `verify:${reference}`, kind: 'VERIFY_SUPPLY' }),
    ]);
    // Two minutes at most: the check's backoff is capped (30 s) well below that.
    await app.wallet.runner.runDue(inMs(2 * MINUTE));
    expect((await supplyState(app, reference)).status).toBe('SUCCESS');
    expect(await credits(reference)).toBe(1);
    expect((await walletState(app, aggregator.walletId)).balance).toBe(before + 3_000);
  });

  it('the page’s verify and the background check racing credit once', async () => {
    const before = (await walletState(app, aggregator.walletId)).balance;
    const references: string[] = [];
    for (let i = 0; i < 6; i++) {
      const reference = await createSupply(1_000 + i);
      const { transactionId } = await recordSandboxPayment(sandbox(), {
        reference,
        amount: 1_000 + i,
        outcome: 'SUCCESS',
      });
      references.push(reference);
      const [answer] = await Promise.all([
        verify(transactionId, reference),
        app.wallet.runner.runDue(inMs(5_000)),
        verify(transactionId, reference),
      ]);
      expect(answer.statusCode).toBe(200);
    }
    await app.wallet.runner.runDue(inMs(5_000));
    for (const reference of references) {
      expect((await supplyState(app, reference)).status).toBe('SUCCESS');
      expect(await credits(reference)).toBe(1);
    }
    expect((await walletState(app, aggregator.walletId)).balance).toBe(
      before + 6 * 1_000 + (0 + 1 + 2 + 3 + 4 + 5),
    );
  });

  it('never paid: checked again and again, then FAILED with its reason after the abandon delay', async () => {
    const reference = await createSupply(2_500);
    const abandon = app.wallet.runner.supplyAbandonMs;
    expect(abandon).toBe(30 * MINUTE);

    await app.wallet.runner.runDue(inMs(10 * MINUTE));
    expect((await supplyState(app, reference)).status).toBe('INIT');
    expect(await app.wallet.runner.store.list()).toEqual([
      expect.objectContaining({ id: `verify:${reference}`, attempts: 1 }),
    ]);

    await app.wallet.runner.runDue(inMs(abandon + MINUTE));
    const failed = await supplyState(app, reference);
    expect(failed).toMatchObject({ status: 'FAILED', failureKind: 'EXPIRED' });
    expect(failed.failureReason).toBe(
      'Aucun paiement reçu du fournisseur dans les 30 minutes : approvisionnement abandonné',
    );
    expect(abandonReason(abandon)).toBe(failed.failureReason);
    expect(await app.wallet.runner.store.list()).toEqual([]);
    expect(await credits(reference)).toBe(0);

    // The payer's list shows it failed, with the reason.
    await projectWallet(testDb.db);
    const list = await app.inject({
      method: 'GET',
      url: `/api/supply/momo-card/${aggregator.id}`,
      headers: { authorization: aggregator.headers.authorization },
    });
    expect(list.statusCode).toBe(200);
    const row = list
      .json<{ data: { reference: string }[] }>()
      .data.find((r) => r.reference === reference);
    expect(row).toMatchObject({
      status: 'FAILED',
      failureCode: 'EXPIRED',
      failureReason: failed.failureReason,
    });

    // A payment the provider proves afterwards is still credited, once.
    const before = (await walletState(app, aggregator.walletId)).balance;
    const { transactionId } = await recordSandboxPayment(sandbox(), {
      reference,
      amount: 2_500,
      outcome: 'SUCCESS',
    });
    expect((await verify(transactionId, reference)).json()).toMatchObject({
      status: 'SUCCESS',
      credited: true,
    });
    expect((await walletState(app, aggregator.walletId)).balance).toBe(before + 2_500);
  });

  it('a refused payment with no page: FAILED at once from the widget’s transaction', async () => {
    const reference = await createSupply(1_500);
    const refused = await app.inject({
      method: 'POST',
      url: `/api/sandbox/pay/${reference}`,
      payload: { outcome: 'FAILED' },
    });
    expect(refused.statusCode).toBe(303);
    await app.wallet.runner.runDue(inMs(5_000));
    expect(await supplyState(app, reference)).toMatchObject({
      status: 'FAILED',
      failureKind: 'FAILED',
      failureReason: 'Paiement refusé par le fournisseur',
    });
    expect(await credits(reference)).toBe(0);
  });

  it('a check lost with its process is given back by the recovery sweep', async () => {
    const reference = await createSupply(1_200);
    await testDb.db.deleteFrom('wallet_jobs').execute();
    await recordSandboxPayment(sandbox(), {
      reference,
      amount: 1_200,
      outcome: 'SUCCESS',
    });
    expect(await app.wallet.runner.recover()).toBeGreaterThanOrEqual(1);
    await app.wallet.runner.runDue(inMs(5_000));
    expect((await supplyState(app, reference)).status).toBe('SUCCESS');
    expect(await countEvents(testDb.db, 'SupplyCredited')).toBeGreaterThan(0);
    expect(await credits(reference)).toBe(1);
  });

  it('npm start without Redis: the in-process loop credits a lost page’s payment by itself', async () => {
    const reference = await createSupply(1_300);
    const before = (await walletState(app, aggregator.walletId)).balance;
    const paid = await app.inject({
      method: 'POST',
      url: `/api/sandbox/pay/${reference}`,
      payload: { outcome: 'SUCCESS' },
    });
    expect(paid.statusCode).toBe(303);
    // Nothing drives the runner by hand here: the API's own loop finds the payment.
    app.wallet.loop!.start();
    try {
      for (let i = 0; i < 400; i++) {
        if ((await supplyState(app, reference)).status === 'SUCCESS') break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      await app.wallet.loop!.stop();
    }
    expect((await supplyState(app, reference)).status).toBe('SUCCESS');
    expect(await credits(reference)).toBe(1);
    expect((await walletState(app, aggregator.walletId)).balance).toBe(before + 1_300);
  });
});
