import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceReference } from '../../kernel/references.js';
import type { Kysely } from 'kysely';
import { beninDay, ConcurrencyError, createLogger, narrowDb, parseConfig } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { handleCommand, streamRef } from '@filiere/event-store';
import { catalogueDecoder, catchUp, type PushMessage } from '@filiere/projections';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import type { Database } from '../../database.js';
import { identityDemoStep } from '../../identity/demo/identity.js';
import {
  createSms,
  DEMO_SECOND_AGGREGATOR,
  findDemoUser,
  userLoader,
} from '../../identity/index.js';
import { bearer, seedUser } from '../../identity/test-support.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { runDemoSteps } from '../../kernel/index.js';
import { product } from '../../modules.js';
import { walletDemoStep } from '../../wallet/demo/wallet.js';
import {
  evolveWallet,
  initialWalletState,
  type WalletEvent,
  type WalletJobsTables,
} from '../../wallet/index.js';
import {
  DeliveryContractCommands,
  type ContractFactsTables,
} from '../commands/delivery-contract-commands.js';
import { debtStreamType } from '../catalogue.js';
import { debtStreamId, openDebt } from '../domain/index.js';
import { contractsProjector } from '../read-model/index.js';
import { ContractRunRunner, type RunTables } from './run-contracts.js';
import type { ContractSettler } from './settle-contract.js';
import { AcceptanceCodes } from '../commands/acceptance-code.js';

/**
 * Running contracts on a real PostgreSQL through the app's routes and runners: each contract
 * is paid exactly once — the hold settled, the debts netted, the SFD paid, the grower's net
 * paid out — whatever the retries, double runs, concurrent runs and crashed jobs.
 */
describe('run contracts', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let commands: DeliveryContractCommands;
  let aggregator: SignedInUser;
  let grower: SignedInUser;
  let sfd: SignedInUser;
  let other: SignedInUser;
  let growerId: string;
  let plotId: string;
  const db = () => testDb.db as Kysely<Database>;
  // Benin's day, as the commands judge a delivery's date (from 23:00 UTC, the next UTC day).
  const today = beninDay(new Date());

  const events = async (streamId: string) => app.eventStore.readStream(streamId);
  const walletOf = async (walletId: string) =>
    (await events(`wallet-${walletId}`))
      .map((e) => ({ type: e.type, data: e.data }) as unknown as WalletEvent)
      .reduce(evolveWallet, initialWalletState());
  const project = () =>
    catchUp(db(), contractsProjector, { decode: catalogueDecoder(product.catalogue) });
  const allEventsCount = async () =>
    Number(
      (
        await db()
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A DELIVERED contract of `amount` for 2 t, 1.5 t delivered. */
  async function deliveredContract(amount: number): Promise<string> {
    const { contractId } = await commands.create(aggregator, {
      growerId,
      productId: plotId,
      quantity: 2,
      amount,
    });
    await commands.confirm(grower, contractId);
    await commands.recordDelivery(aggregator, contractId, { quantity: '1.5', deliveredOn: today });
    return contractId;
  }

  /** A contract of 10,000 F for 1 t the grower has not confirmed (PENDING). */
  async function pendingContract(): Promise<string> {
    const created = await commands.create(aggregator, {
      growerId,
      productId: plotId,
      quantity: 1,
      amount: 10_000,
    });
    return created.contractId;
  }

  async function debt(
    debtId: string,
    kind: 'AVANCE_SUR_INTRANT' | 'FINANCEMENT_SOCIAL',
    creditor: string,
    principal: number,
  ) {
    await handleCommand(app.commands, {
      streams: { debt: streamRef(debtStreamType, debtStreamId(debtId)) },
      metadata: { userId: creditor },
      decide: ({ debt }) =>
        openDebt(
          debt,
          { debtId, kind, creditorUserId: creditor, debtorGrowerId: growerId, principal },
          { now: new Date().toISOString() },
        ),
    });
  }

  const run = (who: SignedInUser, ids: string[], key?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/contracts/run-contracts',
      headers: { ...bearer(app, who, who.role_code), ...(key ? { 'idempotency-key': key } : {}) },
      payload: { ids },
    });
  const progress = (who: SignedInUser, runId: string) =>
    app.inject({
      method: 'GET',
      url: `/api/contracts/runs/${runId}`,
      headers: bearer(app, who, who.role_code),
    });
  const drain = async (runner: ContractRunRunner = app.contracts.runner) => {
    while ((await runner.runDue()) > 0);
  };

  beforeAll(async () => {
    const logger = createLogger('silent', false);
    await runDemoSteps(
      {
        db: db(),
        logger,
        openApp: (config, clock) => buildApp({ config, db: db(), logger, clock }),
      },
      [identityDemoStep, walletDemoStep],
    );
    app = await buildApp({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      db: db(),
      logger,
    });
    const load = userLoader(db());
    const user = async (email: string) => (await load((await findDemoUser(db(), email)).id))!;
    aggregator = await user('agregateur@demo.filiere.bj');
    // A grower's user in the aggregator's cluster, made a grower below (the demo's own grower,
    // producteur@, is registered by the actors' demo, which does not run here).
    grower = (await load(
      (await seedUser(db(), 'ROLE_GROWER', { clusterId: aggregator.cluster_id })).id,
    ))!;
    sfd = await user('sfd@demo.filiere.bj');
    other = await user(DEMO_SECOND_AGGREGATOR);
    await db()
      .updateTable('users')
      .set({ momo_account_number: '+2290196000001' })
      .where('id', '=', grower.id)
      .execute();
    growerId = (
      await db()
        .insertInto('growers')
        .values({
          user_id: grower.id,
          cluster_id: grower.cluster_id!,
          department_code: 'D03',
          commune_code: 'C017',
          arrondissement_code: 'A098',
          village_code: 'V1',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    plotId = (
      await db()
        .insertInto('plots')
        .values({
          grower_id: growerId,
          product_type: 'CAYENNE_LISSE',
          department_code: 'D03',
          commune_code: 'C017',
          arrondissement_code: 'A098',
          village_code: 'V1',
          name: 'Parcelle 1',
          area_sown: '1.5',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    commands = new DeliveryContractCommands(
      narrowDb<ContractFactsTables>()(db()),
      app.commands,
      undefined,
      createSms({ NODE_ENV: 'test' }, db(), logger),
      AcceptanceCodes.fromSecret(app.deps.config.JWT_SECRET),
    );
  });

  afterAll(async () => {
    await app?.close();
  });

  it('pays a delivered contract once: hold settled, advance kept, SFD paid, net paid out; progress DONE', async () => {
    await debt('run-advance-1', 'AVANCE_SUR_INTRANT', aggregator.id, 20_000);
    await debt('run-social-1', 'FINANCEMENT_SOCIAL', sfd.id, 30_000);
    const contractId = await deliveredContract(200_000); // worth 150,000
    await project();
    const aggBefore = await walletOf(aggregator.wallet_id);
    const sfdBefore = await walletOf(sfd.wallet_id);

    const started = await run(aggregator, [contractId]);
    expect(started.statusCode).toBe(202);
    const { runId } = started.json();
    expect(started.json()).toMatchObject({ status: 'RUNNING', total: 1, done: 0 });
    await drain();

    const answer = (await progress(aggregator, runId)).json();
    expect(answer).toMatchObject({ status: 'DONE', total: 1, done: 1, completed: 1, failed: 0 });
    expect(answer.items[0]).toMatchObject({
      contractId,
      status: 'COMPLETED',
      growerNet: 100_000,
      recoveredAmount: 50_000,
      payoutId: `run-${contractId}`,
    });
    // The aggregator pays 130,000 (the net and the SFD's 30,000) out of the 200,000 held,
    // keeps its own 20,000 advance, and gets 70,000 back to its available balance.
    const aggAfter = await walletOf(aggregator.wallet_id);
    expect(aggAfter.balance).toBe(aggBefore.balance - 130_000);
    expect(aggAfter.availableBalance).toBe(aggBefore.availableBalance + 70_000);
    expect(aggAfter.holds.get(`contract-${contractId}`)).toMatchObject({
      status: 'CAPTURED',
      remaining: 0,
    });
    expect((await walletOf(sfd.wallet_id)).balance).toBe(sfdBefore.balance + 30_000);
    // The grower's net went straight to its mobile money payout (DEBIT, PENDING) and its job.
    const [requested] = await events(`withdrawal-run-${contractId}`);
    expect(requested).toMatchObject({
      type: 'WithdrawalRequested',
      data: { amount: 100_000, destination: '+2290196000001', method: 'MOBILE_MONEY' },
    });
    const job = await db()
      .selectFrom('wallet_jobs')
      .select('kind')
      .where('id', '=', `payout:run-${contractId}`)
      .executeTakeFirst();
    expect(job).toEqual({ kind: 'PAYOUT' });
    await project();
    const debts = await db()
      .selectFrom('grower_debts')
      .select(['id', 'recovered'])
      .where('id', 'in', ['run-advance-1', 'run-social-1'])
      .orderBy('id')
      .execute();
    expect(debts).toEqual([
      { id: 'run-advance-1', recovered: 20_000 },
      { id: 'run-social-1', recovered: 30_000 },
    ]);
    // The aggregator's own progress only: another aggregator 403, unknown run 404.
    expect((await progress(other, runId)).statusCode).toBe(403);
    expect((await progress(aggregator, '11111111-1111-4111-8111-111111111111')).statusCode).toBe(
      404,
    );
  });

  it('lists the contracts ready to run with a count, runs them all, and says where each recovery went', async () => {
    const get = (who: SignedInUser, url: string) =>
      app.inject({ method: 'GET', url: `/api${url}`, headers: bearer(app, who, who.role_code) });
    await debt('run-all-advance', 'AVANCE_SUR_INTRANT', aggregator.id, 15_000);
    await debt('run-all-social', 'FINANCEMENT_SOCIAL', sfd.id, 5_000);
    const ids = [await deliveredContract(100_000), await deliveredContract(80_000)];
    const waiting = await pendingContract();
    await project();

    // 'Livraison disponible': the delivered contracts only, counted, with the grower's names.
    const ready = (await get(aggregator, '/contracts/delivery-contract?filters=delivered')).json();
    expect(ready.count).toBe(2);
    expect(ready.data.map((c: { id: string }) => c.id).sort()).toEqual([...ids].sort());
    expect(ready.data[0]).toMatchObject({
      status: 'DELIVERED',
      grower: { id: grower.id, firstname: grower.firstname, lastname: grower.lastname },
    });
    const smarts = (
      await get(aggregator, `/contracts/smarts/${aggregator.id}/LIVRAISON?filters=delivered`)
    ).json();
    expect(smarts.count).toBe(2);
    expect(smarts.data[0].meta.deliveryDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // One action runs them all: only the aggregator, and only its delivered contracts.
    const runAll = (who: SignedInUser) =>
      app.inject({
        method: 'POST',
        url: '/api/contracts/run-delivered',
        headers: bearer(app, who, who.role_code),
      });
    expect((await runAll(grower)).statusCode).toBe(403);
    const started = await runAll(aggregator);
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ status: 'RUNNING', total: 2, done: 0 });
    await drain();
    const answer = (await progress(aggregator, started.json().runId)).json();
    expect(answer).toMatchObject({ status: 'DONE', completed: 2 });
    type Item = {
      contractId: string;
      growerNet: number;
      recoveredAmount: number;
      breakdown: {
        inputAdvances: number;
        pineappleAdvances: number;
        socialFinancing: number;
        growerNet: number;
      };
    };
    const items = answer.items as Item[];
    expect(items.map((i) => i.contractId).sort()).toEqual([...ids].sort());
    // Each contract is worth 75 % of its amount (1.5 of 2 t): the debts are netted first.
    const sum = (pick: (i: Item) => number) => items.reduce((a, i) => a + pick(i), 0);
    expect(sum((i) => i.breakdown.inputAdvances)).toBe(15_000);
    expect(sum((i) => i.breakdown.socialFinancing)).toBe(5_000);
    expect(sum((i) => i.breakdown.pineappleAdvances)).toBe(0);
    expect(sum((i) => i.breakdown.growerNet)).toBe(135_000 - 20_000);
    await project();
    for (const item of items) {
      const b = item.breakdown;
      expect(b.growerNet).toBe(item.growerNet);
      expect(b.inputAdvances + b.pineappleAdvances + b.socialFinancing).toBe(item.recoveredAmount);
      // The contract's page says the same, read from the settlement itself.
      const detail = (
        await get(aggregator, `/contracts/delivery-contract/${item.contractId}`)
      ).json();
      expect(detail.breakdown).toEqual(b);
    }
    // Not yet run: no breakdown.
    expect((await get(aggregator, `/contracts/delivery-contract/${waiting}`)).json()).toMatchObject(
      {
        status: 'PENDING',
        breakdown: null,
      },
    );

    // Nothing left to run: the filter is empty and the action says so.
    expect(
      (await get(aggregator, '/contracts/delivery-contract?filters=delivered')).json().count,
    ).toBe(0);
    const none = await runAll(aggregator);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('Aucun contrat livré à exécuter');
    await commands.cancel(aggregator, waiting);
    await project();
  });

  it('answers one contract as a smart contract (GET contracts/smarts/{id}) within its reach', async () => {
    const id = await pendingContract();
    await project();
    const smart = (who: SignedInUser, contractId = id) =>
      app.inject({
        method: 'GET',
        url: `/api/contracts/smarts/${contractId}`,
        headers: bearer(app, who, who.role_code),
      });
    const mine = await smart(aggregator);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({
      id,
      reference: `LIV-${id.slice(0, 8).toUpperCase()}`,
      status: 'PENDING',
      createdAt: expect.any(String),
      rightSide: { id: grower.id, firstname: grower.firstname, lastname: grower.lastname },
      meta: { quantity: '1', remaining: '1', amount: 10_000, deliveryDate: expect.any(String) },
    });
    expect((await smart(grower)).statusCode).toBe(200);
    expect((await smart(other)).statusCode).toBe(403);
    expect((await smart(aggregator, '11111111-1111-4111-8111-111111111111')).statusCode).toBe(404);
    await commands.cancel(aggregator, id);
    await project();
  });

  it('a second run and two concurrent runs of the same contracts pay nothing again', async () => {
    const ids = [await deliveredContract(100_000), await deliveredContract(120_000)];
    await project();
    const first = (await run(aggregator, ids)).json();
    const second = (await run(aggregator, ids)).json();
    expect(second.runId).not.toBe(first.runId);
    // Two runners (two processes) drain both runs at once.
    const twin = new ContractRunRunner(
      narrowDb<RunTables & WalletJobsTables>()(db()),
      app.contracts.settler,
      async () => undefined,
      createLogger('silent', false),
    );
    await Promise.all([drain(), drain(twin)]);
    for (const id of ids) {
      const settled = (await events(`contract-${id}`)).filter(
        (e) => e.type === 'DeliveryContractSettled',
      );
      expect(settled).toHaveLength(1);
      expect(await events(`withdrawal-run-${id}`)).toHaveLength(1);
    }
    const aggregatorEvents = (await events(`wallet-${aggregator.wallet_id}`)).filter(
      (e) =>
        e.type === 'HoldSettled' &&
        ids.some((id) => (e.data as { holdId: string }).holdId === `contract-${id}`),
    );
    expect(aggregatorEvents).toHaveLength(2);
    for (const runId of [first.runId, second.runId]) {
      expect((await progress(aggregator, runId)).json()).toMatchObject({
        status: 'DONE',
        completed: 2,
      });
    }
    // Once more, after all is paid: a run completes at once and writes no event.
    await project();
    const before = await allEventsCount();
    const third = (await run(aggregator, ids)).json();
    await drain();
    expect((await progress(aggregator, third.runId)).json()).toMatchObject({ completed: 2 });
    expect(await allEventsCount()).toBe(before);
  });

  it('a delivery the read table does not show yet is run from its stream; the checks hold there too', async () => {
    // Recorded a moment ago (by this process or another): not projected yet.
    const id = await deliveredContract(40_000);
    const unconfirmed = await pendingContract();
    const projected = await db()
      .selectFrom('delivery_contracts')
      .select('id')
      .where('id', 'in', [id, unconfirmed])
      .execute();
    expect(projected).toEqual([]);
    expect((await run(other, [id])).statusCode).toBe(403);
    const refused = await run(aggregator, [id, unconfirmed]);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      message: 'Seul un contrat livré peut être exécuté',
      references: [`LIV-${unconfirmed.slice(0, 8).toUpperCase()}`],
    });
    const started = await run(aggregator, [id]);
    expect(started.statusCode).toBe(202);
    await drain();
    expect((await progress(aggregator, started.json().runId)).json()).toMatchObject({
      status: 'DONE',
      completed: 1,
    });
    const settled = (await events(`contract-${id}`)).filter(
      (e) => e.type === 'DeliveryContractSettled',
    );
    expect(settled).toHaveLength(1);
    await commands.cancel(aggregator, unconfirmed);
    await project();
  });

  it('a run of many contracts is settled as one batch and pushes its progress once, with the run’s count', async () => {
    const ids = [
      await deliveredContract(30_000),
      await deliveredContract(40_000),
      await deliveredContract(50_000),
    ];
    await project();
    const { runId } = (await run(aggregator, ids)).json();
    const pushed: PushMessage[] = [];
    const runner = new ContractRunRunner(
      narrowDb<RunTables & WalletJobsTables>()(db()),
      app.contracts.settler,
      async (messages) => {
        pushed.push(...messages);
      },
      createLogger('silent', false),
    );
    expect(await runner.runDue()).toBe(3);
    expect(await runner.runDue()).toBe(0);
    // One push for the batch (not one per contract: a run of 10,000 would send 10,000).
    expect(pushed).toEqual([
      {
        type: 'contracts.run',
        userIds: [aggregator.id],
        data: { runId, contractId: ids[2], status: 'COMPLETED', done: 3, total: 3 },
      },
    ]);
    expect((await progress(aggregator, runId)).json()).toMatchObject({
      status: 'DONE',
      completed: 3,
    });
  });

  it('the same Idempotency-Key answers the same run', async () => {
    const id = await deliveredContract(50_000);
    await project();
    const a = (await run(aggregator, [id], 'cle-run-1')).json();
    const b = (await run(aggregator, [id], 'cle-run-1')).json();
    expect(b.runId).toBe(a.runId);
    await drain();
    expect(
      (await events(`contract-${id}`)).filter((e) => e.type === 'DeliveryContractSettled'),
    ).toHaveLength(1);
  });

  it('a crashed job: the contract was paid but the job never finished — after its lease, the re-run writes nothing new', async () => {
    const id = await deliveredContract(80_000);
    await project();
    const { runId } = (await run(aggregator, [id])).json();
    // A worker claimed the job, paid the contract, and died before recording it.
    const crashed = new ContractRunRunner(
      narrowDb<RunTables & WalletJobsTables>()(db()),
      app.contracts.settler,
      async () => undefined,
      createLogger('silent', false),
      { leaseMs: 60_000 },
    );
    const claimed = await (
      crashed as unknown as {
        jobs: { claimOne(ms: number): Promise<{ contract_id: string } | undefined> };
      }
    ).jobs.claimOne(60_000);
    expect(claimed?.contract_id).toBe(id);
    await app.contracts.settler.settle(id);
    const before = await allEventsCount();
    // While the lease holds, nobody else takes the job.
    expect(await app.contracts.runner.runDue()).toBe(0);
    // The lease runs out.
    await db()
      .updateTable('contract_jobs')
      .set({ locked_until: new Date(Date.now() - 1000) })
      .where('run_id', '=', runId)
      .execute();
    await drain();
    expect(await allEventsCount()).toBe(before);
    expect((await progress(aggregator, runId)).json()).toMatchObject({
      status: 'DONE',
      completed: 1,
    });
    expect(await events(`withdrawal-run-${id}`)).toHaveLength(1);
  });

  it('a settlement that loses to concurrent writers (409) is tried again, not failed: the contract is paid once', async () => {
    const id = await deliveredContract(70_000);
    await project();
    const { runId } = (await run(aggregator, [id])).json();
    // The first try loses every conflict; the next one goes through.
    let tries = 0;
    const settler = {
      settleMany: async (ids: string[]) => {
        tries += 1;
        if (tries === 1) {
          return ids.map((contractId) => ({
            contractId,
            error: new ConcurrencyError('Le flux a été modifié entre-temps ; réessayez.'),
          }));
        }
        return app.contracts.settler.settleMany(ids);
      },
    } as unknown as ContractSettler;
    const runner = new ContractRunRunner(
      narrowDb<RunTables & WalletJobsTables>()(db()),
      settler,
      async () => undefined,
      createLogger('silent', false),
      // One lane: with no backoff, a second lane could claim the released job again within
      // the same call (it did on a loaded machine), and this test counts the calls.
      { baseDelayMs: 0, lanes: 1 },
    );
    expect(await runner.runDue()).toBe(1);
    expect((await progress(aggregator, runId)).json()).toMatchObject({ completed: 0, failed: 0 });
    expect(await runner.runDue()).toBe(1);
    expect((await progress(aggregator, runId)).json()).toMatchObject({
      status: 'DONE',
      completed: 1,
    });
    expect(
      (await events(`contract-${id}`)).filter((e) => e.type === 'DeliveryContractSettled'),
    ).toHaveLength(1);
  });

  it('GET grower/contracts/{id}: the grower’s delivery contracts and debts, searchable, with the growers’ reach', async () => {
    await project();
    const admin = (await userLoader(db())((await findDemoUser(db(), 'admin@demo.filiere.bj')).id))!;
    const get = (who: SignedInUser, query = '') =>
      app.inject({
        method: 'GET',
        url: `/api/grower/contracts/${growerId}${query}`,
        headers: bearer(app, who, who.role_code),
      });
    const all = await get(admin, '?limit=100');
    expect(all.statusCode).toBe(200);
    const body = all.json() as {
      data: { reference: string; type: string; status: string; quantity: number | null }[];
      count: number;
    };
    expect(body.count).toBe(body.data.length);
    expect(body.data.some((r) => r.type === 'LIVRAISON' && r.status === 'COMPLETED')).toBe(true);
    // A debt shows its advance's reference, the one its advances list and the wallet show.
    expect(
      body.data.find(
        (r) => r.reference === advanceReference('AVANCE_SUR_INTRANT', 'run-advance-1'),
      ),
    ).toMatchObject({
      type: 'AVANCE_SUR_INTRANT',
      status: 'COMPLETED',
      quantity: null,
    });
    const social = advanceReference('FINANCEMENT_SOCIAL', 'run-social-1');
    const found = (await get(admin, `?q=${social.slice(2)}`)).json();
    expect(found.data.map((r: { reference: string }) => r.reference)).toEqual([social]);
    expect(body.data.map((r) => r.reference)).not.toContain('run-advance-1');
    expect((await get(grower)).statusCode).toBe(403);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/grower/contracts/99999999-9999-4999-8999-999999999999',
          headers: bearer(app, admin, admin.role_code),
        })
      ).statusCode,
    ).toBe(404);
  });

  it('refuses: the grower (403), another aggregator’s contract (403), an undelivered one (422), unknown (404), no ids (400)', async () => {
    const id = await deliveredContract(10_000);
    const pending = await pendingContract();
    await project();
    expect((await run(grower, [id])).statusCode).toBe(403);
    expect((await run(other, [id])).statusCode).toBe(403);
    const undelivered = await run(aggregator, [id, pending]);
    expect(undelivered.statusCode).toBe(422);
    expect(undelivered.json().message).toBe('Seul un contrat livré peut être exécuté');
    expect((await run(aggregator, ['99999999-9999-4999-8999-999999999999'])).statusCode).toBe(404);
    const empty = await run(aggregator, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toMatchObject({ ids: 'Ce champ est obligatoire' });
  });
});
