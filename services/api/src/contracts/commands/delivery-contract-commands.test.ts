import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { beninDay, createLogger, narrowDb, parseConfig } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { handleCommand, streamRef } from '@filiere/event-store';
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
import { bearer, seedCluster, seedOrganization, seedUser } from '../../identity/test-support.js';
import { runDemoSteps } from '../../kernel/index.js';
import { walletDemoStep } from '../../wallet/demo/wallet.js';
import { evolveWallet, initialWalletState, type WalletEvent } from '../../wallet/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { catchUp } from '@filiere/projections';
import { product } from '../../modules.js';
import { catalogueDecoder } from '@filiere/projections';
import {
  confirmDeliveryContract,
  contractStreamId,
  debtStreamId,
  openDebt,
  recordDelivery,
  settleDeliveryContract,
  type ContractState,
  type Decision,
} from '../domain/index.js';
import { contractStreamType, debtStreamType } from '../catalogue.js';
import { contractsProjector } from '../read-model/index.js';
import {
  DeliveryContractCommands,
  type ContractFactsTables,
} from './delivery-contract-commands.js';
import { AcceptanceCodes } from './acceptance-code.js';

/**
 * The create and cancel commands against a real PostgreSQL and the app's command pipeline:
 * the contract's events and the aggregator's hold are appended together or not at all.
 */
describe('delivery contract commands', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let commands: DeliveryContractCommands;
  let aggregator: SignedInUser;
  let grower: SignedInUser;
  let growerId: string;
  let plotId: string;

  const walletOf = async (walletId: string) =>
    (await app.eventStore.readStream(`wallet-${walletId}`))
      .map((e) => ({ type: e.type, data: e.data }) as unknown as WalletEvent)
      .reduce(evolveWallet, initialWalletState());

  beforeAll(async () => {
    const logger = createLogger('silent', false);
    const db = testDb.db as Kysely<Database>;
    await runDemoSteps(
      { db, logger, openApp: (config, clock) => buildApp({ config, db, logger, clock }) },
      [identityDemoStep, walletDemoStep],
    );
    app = await buildApp({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      db,
      logger,
    });
    const load = userLoader(db);
    aggregator = (await load((await findDemoUser(db, 'agregateur@demo.filiere.bj')).id))!;
    // A grower's user in the aggregator's cluster, made a grower below (the demo's own grower,
    // producteur@, is registered by the actors' demo, which does not run here).
    grower = (await load(
      (await seedUser(db, 'ROLE_GROWER', { clusterId: aggregator.cluster_id })).id,
    ))!;
    const row = await db
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
      .executeTakeFirstOrThrow();
    growerId = row.id;
    const plot = await db
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
      .executeTakeFirstOrThrow();
    plotId = plot.id;
    commands = new DeliveryContractCommands(
      narrowDb<ContractFactsTables>()(db),
      app.commands,
      () => new Date('2026-11-25T10:00:00Z'),
      createSms({ NODE_ENV: 'test' }, db, logger),
      AcceptanceCodes.fromSecret(app.deps.config.JWT_SECRET),
    );
  });

  /** The offers the grower's phone received, oldest first (the outbox the SMS port writes). */
  const offers = async () => {
    const db = testDb.db as Kysely<Database>;
    const { phone } = await db
      .selectFrom('users')
      .select('phone')
      .where('id', '=', grower.id)
      .executeTakeFirstOrThrow();
    return (
      await db
        .selectFrom('sms_outbox')
        .select('text')
        .where('recipient', '=', phone!)
        .orderBy('id')
        .execute()
    ).map((r) => r.text);
  };
  /** The code of the latest offer for contract `reference`. */
  const codeOf = async (reference: string) => {
    const text = (await offers()).filter((t) => t.includes(`contrat ${reference},`)).at(-1);
    return /code (\d{6})$/.exec(text ?? '')?.[1] ?? '';
  };

  it('sends the grower one offer with its code, kept on the stream only as a salted hash; a retried create sends none', async () => {
    const before = (await offers()).length;
    const request = { growerId, productId: plotId, quantity: '2.5', amount: 300_000 };
    const first = await commands.create(aggregator, request, 'offer-key');
    const again = await commands.create(aggregator, request, 'offer-key');
    expect(again).toEqual(first);
    const sent = (await offers()).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(
      new RegExp(
        `^Filière: contrat ${first.reference}, 2,5 t ananas Cayenne lisse à 120 F/kg, livraison au plus tard le 25/04/2027\\. Pour accepter, donnez le code \\d{6}$`,
      ),
    );
    const code = await codeOf(first.reference);
    const events = await app.eventStore.readStream(`contract-${first.contractId}`);
    expect(events.map((e) => e.type)).toEqual(['DeliveryContractCreated', 'AcceptanceCodeIssued']);
    expect(JSON.stringify(events)).not.toContain(code);
    expect(events[1]!.data).toMatchObject({
      codeHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      salt: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('creates a PENDING contract and places the hold of its amount in the same append', async () => {
    const before = await walletOf(aggregator.wallet_id);
    const contractId = '11111111-1111-4111-8111-111111111111';
    const answer = await commands.create(aggregator, {
      growerId,
      productId: plotId,
      quantity: '2.5',
      amount: 500_000,
      contractId,
    });
    expect(answer).toEqual({ contractId, reference: 'LIV-11111111', status: 'PENDING' });
    const [created] = await app.eventStore.readStream(`contract-${contractId}`);
    expect(created).toMatchObject({
      type: 'DeliveryContractCreated',
      data: {
        quantityKg: 2_500,
        amount: 500_000,
        deliveryDate: '2027-04-25',
        productType: 'CAYENNE_LISSE',
      },
    });
    const after = await walletOf(aggregator.wallet_id);
    expect(after.holds.get(`contract-${contractId}`)).toMatchObject({
      amount: 500_000,
      status: 'ACTIVE',
      remaining: 500_000,
    });
    expect(after.availableBalance).toBe(before.availableBalance - 500_000);
  });

  it('answers 422 with the missing amount and writes nothing when the balance is short', async () => {
    const wallet = await walletOf(aggregator.wallet_id);
    const contractId = '22222222-2222-4222-8222-222222222222';
    await expect(
      commands.create(aggregator, {
        growerId,
        productId: plotId,
        quantity: 10,
        amount: wallet.availableBalance + 1234,
        contractId,
      }),
    ).rejects.toMatchObject({
      statusCode: 422,
      message: `Le solde disponible de votre wallet est insuffisant pour créer ce contrat. Il manque ${new Intl.NumberFormat('fr-FR').format(1234)} FCFA`,
      data: { missingAmount: 1234 },
    });
    expect(await app.eventStore.readStream(`contract-${contractId}`)).toEqual([]);
    expect((await walletOf(aggregator.wallet_id)).held).toBe(wallet.held);
  });

  it('a repeated idempotency key creates one contract and one hold', async () => {
    const held = (await walletOf(aggregator.wallet_id)).held;
    const request = { growerId, productId: plotId, quantity: 1, amount: 100_000 };
    const first = await commands.create(aggregator, request, 'key-1');
    const again = await commands.create(aggregator, request, 'key-1');
    expect(again).toEqual(first);
    await expect(
      commands.create(aggregator, { ...request, amount: 100_001 }, 'key-1'),
    ).rejects.toMatchObject({ statusCode: 422, data: { reason: 'IDEMPOTENCY_KEY_REUSED' } });
    expect((await walletOf(aggregator.wallet_id)).held).toBe(held + 100_000);
  });

  it('refuses a grower as creator (403), an unknown grower (404) and another grower’s plot (400)', async () => {
    await expect(
      commands.create(grower, { growerId, productId: plotId, quantity: 1, amount: 1 }),
    ).rejects.toMatchObject({ statusCode: 403 });
    await expect(
      commands.create(aggregator, {
        growerId: '33333333-3333-4333-8333-333333333333',
        productId: plotId,
        quantity: 1,
        amount: 1,
      }),
    ).rejects.toMatchObject({ statusCode: 404, message: 'Producteur introuvable' });
    await expect(
      commands.create(aggregator, {
        growerId,
        productId: '44444444-4444-4444-8444-444444444444',
        quantity: 1,
        amount: 1,
      }),
    ).rejects.toMatchObject({
      statusCode: 400,
      data: { fields: { productId: expect.any(String) } },
    });
  });

  it('cancelling releases the hold in the same append; twice releases once', async () => {
    const contractId = '55555555-5555-4555-8555-555555555555';
    await commands.create(aggregator, {
      growerId,
      productId: plotId,
      quantity: 1,
      amount: 50_000,
      contractId,
    });
    const held = (await walletOf(aggregator.wallet_id)).held;
    expect(await commands.cancel(aggregator, contractId)).toMatchObject({ status: 'CANCELED' });
    expect(await commands.cancel(aggregator, contractId)).toMatchObject({ status: 'CANCELED' });
    const wallet = await walletOf(aggregator.wallet_id);
    expect(wallet.held).toBe(held - 50_000);
    expect(wallet.holds.get(`contract-${contractId}`)?.status).toBe('RELEASED');
    await expect(
      commands.cancel(grower, '11111111-1111-4111-8111-111111111111'),
    ).rejects.toMatchObject({
      statusCode: 403,
    });
  });

  it('projects contracts and debts into delivery_contracts and grower_debts', async () => {
    const db = testDb.db as Kysely<Database>;
    const contractId = '66666666-6666-4666-8666-666666666666';
    await commands.create(aggregator, {
      growerId,
      productId: plotId,
      quantity: 2,
      amount: 200_000,
      contractId,
    });
    const now = '2026-11-25T10:00:00.000Z';
    const contract = streamRef(contractStreamType, contractStreamId(contractId));
    const debt = streamRef(debtStreamType, debtStreamId('debt-1'));
    const onContract = <R>(decide: (state: ContractState) => Decision<R>) =>
      handleCommand(app.commands, {
        streams: { contract },
        metadata: { userId: aggregator.id },
        decide: (s) => decide(s.contract),
      });
    await handleCommand(app.commands, {
      streams: { debt },
      metadata: { userId: aggregator.id },
      decide: (s) =>
        openDebt(
          s.debt,
          {
            debtId: 'debt-1',
            kind: 'AVANCE_SUR_INTRANT',
            creditorUserId: aggregator.id,
            debtorGrowerId: growerId,
            principal: 30_000,
          },
          { now },
        ),
    });
    await onContract((state) =>
      confirmDeliveryContract(
        state,
        { userId: grower.id, role: grower.role_code },
        { now, cooperativeUserId: null },
      ),
    );
    await onContract((state) =>
      recordDelivery(
        state,
        { deliveredKg: 1_500, deliveredOn: '2026-11-25' },
        { userId: aggregator.id, role: aggregator.role_code },
        { now },
      ),
    );
    // the settlement's events alone (the wallet side waits for the wallet's settleHold)
    await handleCommand(app.commands, {
      streams: { contract, debt },
      metadata: { userId: aggregator.id },
      decide: (s) =>
        settleDeliveryContract(
          s.contract,
          [s.debt],
          { userId: aggregator.id, role: aggregator.role_code },
          { now, aggregatorAvailable: 0, payout: null },
        ),
    });
    await catchUp(db, contractsProjector, { decode: catalogueDecoder(product.catalogue) });
    const row = await db
      .selectFrom('delivery_contracts')
      .selectAll()
      .where('id', '=', contractId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'COMPLETED',
      aggregator_user_id: aggregator.id,
      grower_id: growerId,
      quantity_kg: 2_000,
      amount: 200_000,
      delivered_kg: 1_500,
      delivered_amount: 150_000,
      recovered_amount: 30_000,
      grower_net: 120_000,
    });
    expect(
      await db
        .selectFrom('grower_debts')
        .select(['principal', 'recovered'])
        .where('id', '=', 'debt-1')
        .executeTakeFirstOrThrow(),
    ).toEqual({
      principal: 30_000,
      recovered: 30_000,
    });
    const canceled = await db
      .selectFrom('delivery_contracts')
      .select('status')
      .where('id', '=', '55555555-5555-4555-8555-555555555555')
      .executeTakeFirstOrThrow();
    expect(canceled.status).toBe('CANCELED');
  });

  describe('routes', () => {
    const post = (who: SignedInUser | null, body: unknown, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url: '/api/contracts/delivery-contract',
        headers: { ...(who ? bearer(app, who, who.role_code) : {}), ...headers },
        payload: body as object,
      });
    const get = (who: SignedInUser, url: string) =>
      app.inject({ method: 'GET', url, headers: bearer(app, who, who.role_code) });
    const project = () =>
      catchUp(testDb.db as Kysely<Database>, contractsProjector, {
        decode: catalogueDecoder(product.catalogue),
      });

    it('POST creates (201) for the aggregator; 401, 403 grower, 400 French fields, 422 text', async () => {
      const created = await post(aggregator, {
        growerId,
        productId: plotId,
        quantity: 1.5,
        amount: 75_000,
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        status: 'PENDING',
        reference: expect.stringMatching(/^LIV-/),
      });
      expect(
        (await post(null, { growerId, productId: plotId, quantity: 1, amount: 1 })).statusCode,
      ).toBe(401);
      expect(
        (await post(grower, { growerId, productId: plotId, quantity: 1, amount: 1 })).statusCode,
      ).toBe(403);
      const bad = await post(aggregator, {
        growerId: 'x',
        productId: plotId,
        quantity: 'abc',
        amount: 0,
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields).toMatchObject({
        growerId: 'Ce champ est obligatoire',
        amount: 'Entré non valide',
      });
      const short = await post(aggregator, {
        growerId,
        productId: plotId,
        quantity: 1,
        amount: 9_000_000_000,
      });
      expect(short.statusCode).toBe(422);
      expect(short.json().message).toMatch(
        /^Le solde disponible de votre wallet est insuffisant pour créer ce contrat\. Il manque .+ FCFA$/,
      );
    });

    it('lists from the projection: the aggregator its own with filters, admins all, another aggregator none', async () => {
      await project();
      const own = await get(aggregator, '/api/contracts/delivery-contract?limit=100');
      expect(own.statusCode).toBe(200);
      const rows = own.json().data as { id: string; status: string; quantity: string }[];
      expect(own.json().count).toBe(rows.length);
      expect(rows.some((r) => r.quantity === '1.5')).toBe(true);
      const waiting = (
        await get(aggregator, '/api/contracts/delivery-contract?filters=waiting&limit=100')
      ).json();
      expect(waiting.data.every((r: { status: string }) => r.status === 'PENDING')).toBe(true);
      const executed = (
        await get(aggregator, '/api/contracts/delivery-contract?filters=executed')
      ).json();
      expect(executed.data.map((r: { id: string }) => r.id)).toEqual([
        '66666666-6666-4666-8666-666666666666',
      ]);
      expect(
        (await get(aggregator, '/api/contracts/delivery-contract?filters=nope')).statusCode,
      ).toBe(400);

      const db = testDb.db as Kysely<Database>;
      const load = userLoader(db);
      const admin = (await load((await findDemoUser(db, 'admin@demo.filiere.bj')).id))!;
      const other = (await load((await findDemoUser(db, DEMO_SECOND_AGGREGATOR)).id))!;
      expect((await get(other, '/api/contracts/delivery-contract')).json()).toEqual({
        data: [],
        count: 0,
      });
      const detail = `/api/contracts/delivery-contract/${rows[0]!.id}`;
      expect((await get(other, detail)).statusCode).toBe(403);
      expect((await get(aggregator, detail)).json()).toMatchObject({ id: rows[0]!.id });
      // The grower reads its own contracts (it confirms there).
      const its = (rows as unknown as { id: string; growerId: string }[]).find(
        (r) => r.growerId === growerId,
      );
      expect(its).toBeDefined();
      expect((await get(grower, `/api/contracts/delivery-contract/${its!.id}`)).statusCode).toBe(
        200,
      );
      // Another grower's 403 is in contracts/queries.test.ts.
      expect((await get(aggregator, '/api/contracts/delivery-contract/unknown')).statusCode).toBe(
        404,
      );
      // the admin sees every contract (here all are the demo aggregator's)
      const all = (await get(admin, '/api/contracts/delivery-contract?limit=100')).json();
      expect(all.count).toBe(own.json().count);
    });

    const patch = (who: SignedInUser | null, url: string, body?: unknown) =>
      app.inject({
        method: 'PATCH',
        url,
        headers: who ? bearer(app, who, who.role_code) : {},
        ...(body === undefined ? {} : { payload: body as object }),
      });
    /** A cooperative's representative in the grower's cluster, its organisation its own. */
    const cooperativeUser = async (db: Kysely<Database>) => {
      const organizationId = await seedOrganization(db, 'Coopérative de Sékou', 'COOPERATIVE');
      const user = await seedUser(db, 'ROLE_FARMER_ORGANIZATION', {
        clusterId: grower.cluster_id,
        organizationId,
      });
      return (await userLoader(db)(user.id))!;
    };
    const newContract = async () =>
      (await post(aggregator, { growerId, productId: plotId, quantity: 2, amount: 100_000 })).json()
        .contractId as string;

    it('PATCH confirm: the grower (200, again 200), another grower or an aggregator refused, unknown 404', async () => {
      const db = testDb.db as Kysely<Database>;
      const id = await newContract();
      const url = `/api/contracts/delivery-contract/${id}/confirm`;
      expect((await patch(null, url)).statusCode).toBe(401);
      expect((await patch(aggregator, url)).statusCode).toBe(403);
      const coop = await cooperativeUser(db);
      // A cooperative the grower is not a member of: 403 with the French reason.
      const refused = await patch(coop, url);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(
        'Seul le producteur ou sa coopérative peut confirmer ce contrat',
      );
      const ok = await patch(grower, url);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ contractId: id, status: 'CONFIRMED' });
      expect((await patch(grower, url)).json()).toMatchObject({ status: 'CONFIRMED' });
      expect(
        (await patch(grower, '/api/contracts/delivery-contract/not-a-uuid/confirm')).statusCode,
      ).toBe(400);
      expect(
        (
          await patch(
            grower,
            '/api/contracts/delivery-contract/99999999-9999-4999-8999-999999999999/confirm',
          )
        ).statusCode,
      ).toBe(404);
    });

    it('PATCH confirm by the grower’s cooperative takes the grower’s code: wrong codes limited, a new code replaces the old, the page shows the acceptance', async () => {
      const db = testDb.db as Kysely<Database>;
      const coop = await cooperativeUser(db);
      await db
        .insertInto('cooperatives')
        .values({
          organization_id: coop.organization_id!,
          user_id: coop.id,
          cluster_id: grower.cluster_id!,
          ifu: '1234567890123',
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await db
        .updateTable('growers')
        .set({ cooperative_id: coop.organization_id })
        .where('id', '=', growerId)
        .execute();
      try {
        // Made on the commands' clock (a day past), so that a new code may be asked now.
        const { contractId: id, reference } = await commands.create(aggregator, {
          growerId,
          productId: plotId,
          quantity: 2,
          amount: 100_000,
        });
        const url = `/api/contracts/delivery-contract/${id}/confirm`;
        const first = await codeOf(reference);
        const wrong = first === '000000' ? '111111' : '000000';
        const missing = await patch(coop, url);
        expect(missing.statusCode).toBe(400);
        expect(missing.json().fields).toEqual({ code: 'Ce champ est obligatoire' });
        expect((await patch(coop, url, { code: '12a' })).statusCode).toBe(400);
        for (let left = 4; left >= 1; left--) {
          const refused = await patch(coop, url, { code: wrong });
          expect(refused.statusCode).toBe(422);
          expect(refused.json()).toMatchObject({
            reason: 'ACCEPTANCE_CODE_WRONG',
            message: `Code incorrect : il reste ${left} essai${left > 1 ? 's' : ''} avant le blocage du code`,
          });
        }
        expect((await patch(coop, url, { code: wrong })).json().message).toBe(
          'Code incorrect : le code est maintenant bloqué. Renvoyez un nouveau code au producteur',
        );
        const locked = await patch(coop, url, { code: first });
        expect(locked.statusCode).toBe(422);
        expect(locked.json().reason).toBe('ACCEPTANCE_CODE_LOCKED');
        await project();
        const page = await get(coop, `/api/contracts/delivery-contract/${id}`);
        expect(page.json()).toMatchObject({
          status: 'PENDING',
          acceptance: null,
          acceptanceCode: { locked: true, phone: expect.stringMatching(/^••••\d{4}$/) },
        });

        // 'Renvoyer le code': a new SMS; the old code no longer counts; again at once is 429.
        const resend = (who: SignedInUser) =>
          app.inject({
            method: 'POST',
            url: `/api/contracts/delivery-contract/${id}/acceptance-code`,
            headers: bearer(app, who, who.role_code),
          });
        expect((await resend(grower)).statusCode).toBe(403);
        const sentBefore = (await offers()).length;
        const resent = await resend(coop);
        expect(resent.statusCode).toBe(200);
        expect(resent.json()).toMatchObject({ reference, phone: expect.stringMatching(/^••••/) });
        expect((await offers()).length).toBe(sentBefore + 1);
        const again = await resend(aggregator);
        expect(again.statusCode).toBe(429);
        expect(again.json().reason).toBe('ACCEPTANCE_CODE_TOO_SOON');
        const second = await codeOf(reference);
        if (second !== first) {
          const old = await patch(coop, url, { code: first });
          expect(old.json()).toMatchObject({ reason: 'ACCEPTANCE_CODE_WRONG' });
        }
        const ok = await patch(coop, url, { code: second });
        expect(ok.statusCode).toBe(200);
        expect(ok.json()).toEqual({ contractId: id, reference, status: 'CONFIRMED' });
        const accepted = (await app.eventStore.readStream(`contract-${id}`)).filter(
          (e) => e.type === 'DeliveryContractAccepted',
        );
        expect(accepted).toHaveLength(1);
        expect(accepted[0]!.data).toMatchObject({ method: 'CODE', acceptedBy: coop.id });
        await project();
        const shown = await get(aggregator, `/api/contracts/delivery-contract/${id}`);
        expect(shown.json()).toMatchObject({
          status: 'CONFIRMED',
          acceptanceCode: null,
          acceptance: {
            method: 'CODE',
            acceptedBy: { id: coop.id, firstname: coop.firstname, lastname: coop.lastname },
            phone: expect.stringMatching(/^••••\d{4}$/),
          },
        });
        expect((await resend(coop)).statusCode).toBe(422);
      } finally {
        await db
          .updateTable('growers')
          .set({ cooperative_id: null })
          .where('id', '=', growerId)
          .execute();
      }
    });

    it('PATCH delivery: the aggregator records tonnes and date once confirmed; French refusals', async () => {
      const db = testDb.db as Kysely<Database>;
      const id = await newContract();
      const url = `/api/contracts/delivery-contract/${id}/delivery`;
      // The routes' commands run on the real clock.
      // Benin's days, as the commands judge them (from 23:00 UTC, the next UTC day).
      const today = beninDay(new Date());
      const body = { quantity: 1.75, deliveredOn: today };
      const pending = await patch(aggregator, url, body);
      expect(pending.statusCode).toBe(422);
      expect(pending.json().message).toBe('Ce contrat n’est pas encore confirmé par le producteur');
      await patch(grower, `/api/contracts/delivery-contract/${id}/confirm`);
      expect((await patch(grower, url, body)).statusCode).toBe(403);
      const other = (await userLoader(db)((await findDemoUser(db, DEMO_SECOND_AGGREGATOR)).id))!;
      expect((await patch(other, url, body)).statusCode).toBe(403);
      const bad = await patch(aggregator, url, { quantity: 1, deliveredOn: 'hier' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields).toMatchObject({ deliveredOn: 'Ce champ est obligatoire' });
      const tomorrow = beninDay(new Date(Date.now() + 86_400_000));
      const future = await patch(aggregator, url, { quantity: 1, deliveredOn: tomorrow });
      expect(future.statusCode).toBe(400);
      expect(future.json().fields).toMatchObject({
        deliveredOn: 'La date de livraison ne peut pas être dans le futur',
      });
      const ok = await patch(aggregator, url, body);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ contractId: id, status: 'DELIVERED' });
      expect((await patch(aggregator, url, body)).statusCode).toBe(200);
      // Created, its code issued, confirmed with the grower's acceptance, then recorded.
      const [, , , , recorded] = await app.eventStore.readStream(`contract-${id}`);
      expect(recorded).toMatchObject({
        type: 'DeliveryRecorded',
        data: { deliveredKg: 1_750, deliveredOn: today },
      });
      // Delivered: cancelling is refused.
      const cancel = await app.inject({
        method: 'DELETE',
        url: `/api/contracts/delivery-contract/${id}`,
        headers: bearer(app, aggregator, aggregator.role_code),
      });
      expect(cancel.statusCode).toBe(422);
      expect(cancel.json().message).toBe('Un contrat livré ne peut plus être annulé');
    });

    it('DELETE cancels and releases the hold; the grower cannot; another aggregator 403', async () => {
      const db = testDb.db as Kysely<Database>;
      const id = await newContract();
      const del = (who: SignedInUser) =>
        app.inject({
          method: 'DELETE',
          url: `/api/contracts/delivery-contract/${id}`,
          headers: bearer(app, who, who.role_code),
        });
      expect((await del(grower)).statusCode).toBe(403);
      const other = (await userLoader(db)((await findDemoUser(db, DEMO_SECOND_AGGREGATOR)).id))!;
      expect((await del(other)).statusCode).toBe(403);
      const before = await walletOf(aggregator.wallet_id);
      const ok = await del(aggregator);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ status: 'CANCELED' });
      const after = await walletOf(aggregator.wallet_id);
      expect(after.availableBalance).toBe(before.availableBalance + 100_000);
      expect(after.holds.get(`contract-${id}`)).toMatchObject({ status: 'RELEASED', remaining: 0 });
    });

    it('smarts/{userId}/LIVRAISON: {data, count} with the grower as right side, search, filters, reach', async () => {
      const db = testDb.db as Kysely<Database>;
      const url = `/api/contracts/smarts/${aggregator.id}/LIVRAISON`;
      const all = await get(aggregator, `${url}?limit=100`);
      expect(all.statusCode).toBe(200);
      const body = all.json() as {
        data: {
          reference: string;
          rightSide: { id: string };
          meta: { quantity: string; remaining: string };
        }[];
        count: number;
      };
      expect(body.count).toBe(body.data.length);
      expect(body.data.every((r) => r.rightSide.id === grower.id)).toBe(true);
      const done = (await get(aggregator, `${url}?filters=executed`)).json();
      expect(done.data[0].meta).toEqual({
        quantity: '2',
        remaining: '0.5',
        amount: 200_000,
        deliveryDate: '2027-04-25',
      });
      const found = (await get(aggregator, `${url}?q=LIV-66666666`)).json();
      expect(found.count).toBe(1);
      expect((await get(aggregator, `${url}?q=${encodeURIComponent('%')}`)).json().count).toBe(0);
      expect((await get(aggregator, `${url}?onlyParent=true`)).json()).toEqual({
        data: [],
        count: 0,
      });
      const other = (await userLoader(db)((await findDemoUser(db, DEMO_SECOND_AGGREGATOR)).id))!;
      expect((await get(other, url)).statusCode).toBe(403);
      const admin = (await userLoader(db)((await findDemoUser(db, 'admin@demo.filiere.bj')).id))!;
      expect((await get(admin, url)).json().count).toBe(body.count);
      expect(
        (await get(aggregator, `/api/contracts/smarts/${aggregator.id}/NOPE`)).statusCode,
      ).toBe(400);
    });
    it('POST refuses a grower of another cluster (403 as GET grower/{id}), creating nothing', async () => {
      const db = testDb.db as Kysely<Database>;
      const elsewhere = await seedCluster(db, 'Cluster voisin');
      const user = await seedUser(db, 'ROLE_GROWER', { clusterId: elsewhere });
      const foreign = await db
        .insertInto('growers')
        .values({
          user_id: user.id,
          cluster_id: elsewhere,
          department_code: 'D03',
          commune_code: 'C017',
          arrondissement_code: 'A098',
          village_code: 'V1',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const plot = await db
        .insertInto('plots')
        .values({
          grower_id: foreign.id,
          product_type: 'CAYENNE_LISSE',
          department_code: 'D03',
          commune_code: 'C017',
          arrondissement_code: 'A098',
          village_code: 'V1',
          name: 'Parcelle voisine',
          area_sown: '1',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect((await get(aggregator, `/api/grower/${foreign.id}`)).statusCode).toBe(403);
      const created = async () =>
        (
          await db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('type', '=', 'DeliveryContractCreated')
            .executeTakeFirstOrThrow()
        ).n;
      const before = await created();
      const wallet = await walletOf(aggregator.wallet_id);
      const refused = await post(aggregator, {
        growerId: foreign.id,
        productId: plot.id,
        quantity: 1,
        amount: 10_000,
      });
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().message).toBe('Ce producteur n’est pas dans votre périmètre');
      expect(await created()).toBe(before);
      const after = await walletOf(aggregator.wallet_id);
      expect(after.availableBalance).toBe(wallet.availableBalance);
      expect(after.held).toBe(wallet.held);
    });

    it('POST takes numbers under one rule whatever their JSON type: the ceiling holds for text', async () => {
      for (const quantity of ['1000001', 1_000_001, '1 000 000,001', '1,2345', '1e3', -1, '0']) {
        const res = await post(aggregator, {
          growerId,
          productId: plotId,
          quantity,
          amount: 1_000,
        });
        expect(res.statusCode, `${quantity}: ${res.body}`).toBe(400);
      }
      const ceiling = await post(aggregator, {
        growerId,
        productId: plotId,
        quantity: '1000001',
        amount: 1_000,
      });
      expect(ceiling.json().fields).toEqual({
        quantity: 'La quantité ne peut pas dépasser 1 000 000 t',
      });
      const comma = await post(aggregator, {
        growerId,
        productId: plotId,
        quantity: '1,5',
        amount: '12 000',
      });
      expect(comma.statusCode, comma.body).toBe(201);
      const [event] = await app.eventStore.readStream(`contract-${comma.json().contractId}`);
      expect(event).toMatchObject({ data: { quantityKg: 1_500, amount: 12_000 } });
      for (const amount of ['12,5', '0', 'douze', 12.5]) {
        const res = await post(aggregator, { growerId, productId: plotId, quantity: 1, amount });
        expect(res.statusCode, `${amount}: ${res.body}`).toBe(400);
        expect(res.json().fields).toEqual({ amount: 'Entré non valide' });
      }
    });
  });
});
