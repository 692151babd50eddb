import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { beninDay, createLogger, narrowDb, parseConfig } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { handleCommand, streamRef } from '@filiere/event-store';
import { catalogueDecoder, catchUp } from '@filiere/projections';
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
  DeliveryContractCommands,
  type ContractFactsTables,
} from '../commands/delivery-contract-commands.js';
import { debtStreamType } from '../catalogue.js';
import { debtStreamId, openDebt } from '../domain/index.js';
import { contractsProjector } from '../read-model/index.js';
import { computeSettlement } from '../domain/settlement-rule.js';
import { harvestDateOf, weekOf } from './harvest.js';
import { phoneCheckOf, type OfflineDay } from './service.js';
import { AcceptanceCodes } from '../commands/acceptance-code.js';

/**
 * The collection centre's scale on a real PostgreSQL: find the grower by code or phone, see
 * the weighing's figures, confirm once — delivered, settled and the payout queued in one
 * command — exactly once whatever the replays.
 */
describe('collection centre: pay at the scale', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let commands: DeliveryContractCommands;
  let aggregator: SignedInUser;
  let grower: SignedInUser;
  let other: SignedInUser;
  let growerId: string;
  let growerReference: string;
  let plotId: string;
  const db = () => testDb.db as Kysely<Database>;
  const today = beninDay(new Date());

  const project = () =>
    catchUp(db(), contractsProjector, { decode: catalogueDecoder(product.catalogue) });
  const eventCount = async () =>
    Number(
      (
        await db()
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A CONFIRMED contract of `amount` F for 2 t. */
  async function confirmedContract(amount: number): Promise<string> {
    const { contractId } = await commands.create(aggregator, {
      growerId,
      productId: plotId,
      quantity: 2,
      amount,
    });
    await commands.confirm(grower, contractId);
    return contractId;
  }

  const find = (who: SignedInUser, q: string) =>
    app.inject({
      method: 'GET',
      url: `/api/contracts/collection/growers?q=${encodeURIComponent(q)}`,
      headers: bearer(app, who, who.role_code),
    });
  const preview = (who: SignedInUser, payload: object) =>
    app.inject({
      method: 'POST',
      url: '/api/contracts/collection/preview',
      headers: bearer(app, who, who.role_code),
      payload,
    });
  const confirm = (who: SignedInUser, payload: object, key?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/contracts/collection/weighings',
      headers: { ...bearer(app, who, who.role_code), ...(key ? { 'idempotency-key': key } : {}) },
      payload,
    });

  const logger = createLogger('silent', false);

  beforeAll(async () => {
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
    other = await user(DEMO_SECOND_AGGREGATOR);
    grower = (await load(
      (await seedUser(db(), 'ROLE_GROWER', { clusterId: aggregator.cluster_id })).id,
    ))!;
    await db()
      .updateTable('users')
      .set({ momo_account_number: '+2290196000002', phone: '+229 01 97 12 34 56' })
      .where('id', '=', grower.id)
      .execute();
    const row = await db()
      .insertInto('growers')
      .values({
        user_id: grower.id,
        cluster_id: grower.cluster_id!,
        department_code: 'D03',
        commune_code: 'C017',
        arrondissement_code: 'A098',
        village_code: 'V1',
      })
      .returning(['id', 'reference'])
      .executeTakeFirstOrThrow();
    growerId = row.id;
    growerReference = row.reference;
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

  it('finds the grower by code, its digits or phone, with only his contracts ready for delivery', async () => {
    const ready = await confirmedContract(100_000);
    const { contractId: pending } = await commands.create(aggregator, {
      growerId,
      productId: plotId,
      quantity: 1,
      amount: 10_000,
    });
    await project();
    const digits = String(Number(growerReference.replace(/\D/g, '')));
    for (const q of [growerReference, digits, '97123456', '+229 01 97 12 34 56']) {
      const found = await find(aggregator, q);
      expect(found.statusCode).toBe(200);
      const [match] = found.json().data;
      expect(match).toMatchObject({
        id: growerId,
        reference: growerReference,
        hasMobileMoney: true,
      });
      const ids = match.contracts.map((c: { id: string }) => c.id);
      expect(ids).toContain(ready);
      expect(ids).not.toContain(pending);
    }
    expect((await find(aggregator, 'PRD-999999')).json().data).toEqual([]);
    // An aggregator outside the grower's cluster does not find him.
    const elsewhere = await find(other, growerReference);
    if (other.cluster_id) {
      expect(elsewhere.json().data).toEqual([]);
    } else {
      expect(elsewhere.statusCode).toBe(403);
      expect(elsewhere.json().message).toBe('Votre compte n’est rattaché à aucun cluster');
    }
    // The grower himself may not use the scale.
    expect((await find(grower, growerReference)).statusCode).toBe(403);
  });

  it('previews value, each debt recovered and the net without writing anything', async () => {
    const contractId = await confirmedContract(200_000); // 100 F per kg
    await handleCommand(app.commands, {
      streams: { debt: streamRef(debtStreamType, debtStreamId('scale-advance-1')) },
      metadata: { userId: aggregator.id },
      decide: ({ debt }) =>
        openDebt(
          debt,
          {
            debtId: 'scale-advance-1',
            kind: 'AVANCE_SUR_INTRANT',
            creditorUserId: aggregator.id,
            debtorGrowerId: growerId,
            principal: 20_000,
          },
          { now: new Date().toISOString() },
        ),
    });
    await project();
    const before = await eventCount();
    const answer = await preview(aggregator, { contractId, kilograms: 1500, grade: 'A' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      deliveredKg: 1500,
      deliveredAmount: 150_000,
      recoveredAmount: 20_000,
      growerNet: 130_000,
      recoveries: [{ debtId: 'scale-advance-1', kind: 'AVANCE_SUR_INTRANT', amount: 20_000 }],
      payoutQueued: false,
    });
    expect(await eventCount()).toBe(before);
    const read = await db()
      .selectFrom('delivery_contracts')
      .select('status')
      .where('id', '=', contractId)
      .executeTakeFirstOrThrow();
    expect(read.status).toBe('CONFIRMED');
  });

  it('confirms in one step — delivered, settled, payout queued — exactly once under retries', async () => {
    const contractId = await confirmedContract(200_000);
    await project();
    const body = { contractId, kilograms: 1000, grade: 'B', weighedOn: today };
    const key = `scale-${contractId}`;
    // Five copies of the same request at once, then one more later: one effect.
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => confirm(aggregator, body, key)),
    );
    const again = await confirm(aggregator, body, key);
    for (const a of [...answers, again]) {
      expect(a.statusCode).toBe(201);
      expect(a.json()).toMatchObject({
        contractId,
        status: 'COMPLETED',
        deliveredKg: 1000,
        grade: 'B',
        deliveredAmount: 100_000,
        payoutId: `run-${contractId}`,
        payoutQueued: true,
      });
    }
    const stream = await app.eventStore.readStream(`contract-${contractId}`);
    expect(stream.map((e) => e.type)).toEqual([
      'DeliveryContractCreated',
      'AcceptanceCodeIssued',
      'DeliveryContractConfirmed',
      'DeliveryContractAccepted',
      'DeliveryRecorded',
      'DeliveryContractSettled',
    ]);
    expect(stream[4]!.data).toMatchObject({ deliveredKg: 1000, deliveredOn: today, grade: 'B' });
    const withdrawal = await app.eventStore.readStream(`withdrawal-run-${contractId}`);
    expect(withdrawal.map((e) => e.type)).toEqual(['WithdrawalRequested']);
    const jobs = await db()
      .selectFrom('wallet_jobs')
      .select('kind')
      .where('id', '=', `payout:run-${contractId}`)
      .execute();
    expect(jobs).toEqual([{ kind: 'PAYOUT' }]);
    // The same key for another weighing is refused; a new key on a paid contract too.
    const reused = await confirm(aggregator, { ...body, kilograms: 900 }, key);
    expect(reused.statusCode).toBe(422);
    const late = await confirm(aggregator, { ...body, kilograms: 900 }, `${key}-2`);
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toBe('La livraison de ce contrat est déjà enregistrée');
  });

  it('keeps a day for offline weighing: figures equal to the preview, no phone in clear', async () => {
    const contractId = await confirmedContract(300_000); // 150 F per kg
    await handleCommand(app.commands, {
      streams: { debt: streamRef(debtStreamType, debtStreamId('scale-offline-1')) },
      metadata: { userId: aggregator.id },
      decide: ({ debt }) =>
        openDebt(
          debt,
          {
            debtId: 'scale-offline-1',
            kind: 'AVANCE_SUR_ANANAS',
            creditorUserId: aggregator.id,
            debtorGrowerId: growerId,
            principal: 7_000,
          },
          { now: new Date().toISOString() },
        ),
    });
    await project();
    const answer = await app.inject({
      method: 'GET',
      url: '/api/contracts/collection/offline-day',
      headers: bearer(app, aggregator, aggregator.role_code),
    });
    expect(answer.statusCode).toBe(200);
    const day = answer.json<OfflineDay>();
    expect(answer.body).not.toContain('97 12 34 56');
    expect(answer.body).not.toContain('97123456');
    const kept = day.growers.find((g) => g.id === growerId)!;
    expect(kept).toMatchObject({ reference: growerReference, hasMobileMoney: true });
    expect(kept.phoneChecks).toContain(phoneCheckOf(growerId, '97123456'));
    const contract = kept.contracts.find((c) => c.id === contractId)!;
    expect(contract).toMatchObject({ quantityKg: 2000, amount: 300_000 });
    expect(kept.debts.map((d) => d.id)).toContain('scale-offline-1');
    // The screen's computation (the server's own rule) gives the server's preview's figures.
    const local = computeSettlement({
      contract: {
        contractId,
        aggregatorUserId: day.aggregatorUserId,
        growerId,
        amount: contract.amount,
        quantityKg: contract.quantityKg,
        deliveredKg: 1234,
      },
      held: contract.amount,
      aggregatorAvailable: day.available,
      debts: kept.debts.map((d) => ({
        exists: true,
        debtId: d.id,
        kind: d.kind as 'AVANCE_SUR_ANANAS',
        creditorUserId: d.creditorUserId,
        debtorGrowerId: growerId,
        principal: d.outstanding,
        recovered: 0,
        openedAt: d.openedAt,
        recoveries: {},
      })),
    });
    const server = (await preview(aggregator, { contractId, kilograms: 1234, grade: 'A' })).json();
    expect(local.deliveredAmount).toBe(server.deliveredAmount);
    expect(local.growerNet).toBe(server.growerNet);
    expect(local.recoveries.map((r) => [r.debtId, r.amount])).toEqual(
      server.recoveries.map((r: { debtId: string; amount: number }) => [r.debtId, r.amount]),
    );
    // Only the aggregator's scale gets it.
    const refused = await app.inject({
      method: 'GET',
      url: '/api/contracts/collection/offline-day',
      headers: bearer(app, grower, grower.role_code),
    });
    expect(refused.statusCode).toBe(403);
  });

  it('refuses with French messages: no key, another aggregator, unconfirmed, bad weight', async () => {
    const contractId = await confirmedContract(50_000);
    const { contractId: pending } = await commands.create(aggregator, {
      growerId,
      productId: plotId,
      quantity: 1,
      amount: 10_000,
    });
    const body = { contractId, kilograms: 500, grade: 'A', weighedOn: today };
    const before = await eventCount();

    const noKey = await confirm(aggregator, body);
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().message).toMatch(/idempotence/i);

    const stranger = await confirm(other, body, 'k-other');
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().message).toBe('Ce contrat ne vous appartient pas');

    const unconfirmed = await confirm(aggregator, { ...body, contractId: pending }, 'k-pending');
    expect(unconfirmed.statusCode).toBe(422);
    expect(unconfirmed.json().message).toBe(
      'Ce contrat n’est pas encore confirmé par le producteur',
    );

    const zero = await confirm(aggregator, { ...body, kilograms: 0 }, 'k-zero');
    expect(zero.statusCode).toBe(400);
    expect(JSON.stringify(zero.json())).toContain('kilogrammes');
    expect(JSON.stringify(zero.json())).not.toContain('"message":"kilograms');

    const byGrower = await confirm(grower, body, 'k-grower');
    expect(byGrower.statusCode).toBe(403);

    expect(await eventCount()).toBe(before);
  });

  it('forecasts the tonnes per buying centre and week, five months after each TIF date', async () => {
    const tif = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    await db()
      .updateTable('plots')
      .set({ tif_date: tif, estimated_production: '12.5' })
      .where('id', '=', plotId)
      .execute();
    const get = (who: SignedInUser) =>
      app.inject({
        method: 'GET',
        url: '/api/contracts/collection/harvest-forecast?weeks=30',
        headers: bearer(app, who, who.role_code),
      });
    const answer = await get(aggregator);
    expect(answer.statusCode).toBe(200);
    const week = weekOf(harvestDateOf(tif));
    const rows = (
      answer.json().data as { week: string; expectedKg: number; contractedKg: number }[]
    ).filter((r) => r.week === week);
    // The plot's 12.5 t, and the contracts still open on it (the earlier tests' PENDING ones).
    expect(rows.reduce((sum, r) => sum + r.expectedKg, 0)).toBeGreaterThanOrEqual(12_500);
    expect(rows.reduce((sum, r) => sum + r.contractedKg, 0)).toBeGreaterThan(0);
    expect((await get(grower)).statusCode).toBe(403);
  });
});
