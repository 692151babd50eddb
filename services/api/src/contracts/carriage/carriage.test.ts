import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import { createLogger, parseConfig } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildApp } from '../../app.js';
import type { Database } from '../../database.js';
import { identityDemoStep } from '../../identity/demo/identity.js';
import { findDemoUser, userLoader } from '../../identity/index.js';
import { bearer, seedUser } from '../../identity/test-support.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { runDemoSteps } from '../../kernel/index.js';
import { product } from '../../modules.js';
import { walletDemoStep } from '../../wallet/demo/wallet.js';
import { evolveWallet, initialWalletState, type WalletEvent } from '../../wallet/index.js';
import { carriageContractsProjector } from './read-model/projector.js';

/**
 * Carriage contracts through the routes on a real PostgreSQL and the app's pipeline: the
 * hold is placed with the contract, a refused creation writes nothing, cancel releases once,
 * pay settles the hold to the carrier exactly once under concurrent calls, and reach.
 */
describe('carriage contracts', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let db: Kysely<Database>;
  let aggregator: SignedInUser;
  let otherAggregator: SignedInUser;
  let carrierUser: SignedInUser;
  let otherCarrierUser: SignedInUser;
  let grower: SignedInUser;
  let carrier: { id: string; vehicleId: string };
  let otherCarrier: { id: string; vehicleId: string };

  const walletOf = async (walletId: string) =>
    (await app.eventStore.readStream(`wallet-${walletId}`))
      .map((e) => ({ type: e.type, data: e.data }) as unknown as WalletEvent)
      .reduce(evolveWallet, initialWalletState());
  const eventCount = async () =>
    Number(
      (
        await db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const project = async () => {
    await catchUp(db, carriageContractsProjector, {
      decode: catalogueDecoder(product.catalogue),
    });
  };
  const call = (
    who: SignedInUser,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    app.inject({
      method,
      url,
      headers: bearer(app, who, who.role_code),
      ...(payload ? { payload } : {}),
    });
  const create = (who: SignedInUser, body: Record<string, unknown>) =>
    call(who, 'POST', '/api/contracts/carriage-contract', body);

  async function seedCarrier(n: number) {
    const user = await seedUser(db, 'ROLE_CARRIER', { clusterId: aggregator.cluster_id });
    const row = await db
      .insertInto('carriers')
      .values({
        user_id: user.id,
        cluster_id: aggregator.cluster_id!,
        address: 'Allada',
        department_code: 'D03',
        commune_code: 'C017',
        arrondissement_code: 'A098',
        village_code: 'V1',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const vehicle = await db
      .insertInto('vehicles')
      .values({
        carrier_id: row.id,
        car_type: 'CAMION',
        registration: `AB ${1000 + n} RB ${Date.now() % 10000}`,
        capacity: 1000,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { user: user.id, id: row.id, vehicleId: vehicle.id };
  }

  beforeAll(async () => {
    const logger = createLogger('silent', false);
    db = testDb.db as Kysely<Database>;
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
    otherAggregator = (await load(
      (await seedUser(db, 'ROLE_INDUSTRIAL', { clusterId: aggregator.cluster_id })).id,
    ))!;
    const a = await seedCarrier(1);
    const b = await seedCarrier(2);
    carrier = a;
    otherCarrier = b;
    carrierUser = (await load(a.user))!;
    otherCarrierUser = (await load(b.user))!;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('creates with its hold in one append; a short wallet is a 422 with the missing amount and writes nothing', async () => {
    const before = await walletOf(aggregator.wallet_id);
    expect(before.availableBalance).toBeGreaterThan(50_000);
    const made = await create(aggregator, {
      carrierId: carrier.id,
      vehicleId: carrier.vehicleId,
      transportDate: '2026-01-10',
      amount: 25_000,
      description: 'Allada → usine',
    });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({
      status: 'CREATED',
      reference: expect.stringMatching(/^TRA-/),
    });
    const after = await walletOf(aggregator.wallet_id);
    expect(after.availableBalance).toBe(before.availableBalance - 25_000);
    expect(after.balance).toBe(before.balance);

    const events = await eventCount();
    const missing = after.availableBalance + 1_000 - after.availableBalance;
    const short = await create(aggregator, {
      carrierId: carrier.id,
      vehicleId: carrier.vehicleId,
      transportDate: '2026-01-10',
      amount: after.availableBalance + 1_000,
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().message).toBe(
      `Le solde disponible de votre wallet est insuffisant pour créer ce contrat. Il manque ${new Intl.NumberFormat('fr-FR').format(missing)} FCFA`,
    );
    expect(await eventCount()).toBe(events);

    // A vehicle of another carrier, a bad amount: 400 with field messages, nothing written.
    const wrongVehicle = await create(aggregator, {
      carrierId: carrier.id,
      vehicleId: otherCarrier.vehicleId,
      transportDate: '2026-01-10',
      amount: 1_000,
    });
    expect(wrongVehicle.statusCode).toBe(400);
    expect(wrongVehicle.json().fields).toMatchObject({ vehicleId: expect.any(String) });
    const badAmount = await create(aggregator, {
      carrierId: carrier.id,
      vehicleId: carrier.vehicleId,
      transportDate: '2026-01-10',
      amount: 10.5,
    });
    expect(badAmount.statusCode).toBe(400);
    expect(await eventCount()).toBe(events);

    await project();
    const list = await call(aggregator, 'GET', '/api/contracts/carriage-contract?q=tra-');
    expect(list.statusCode).toBe(200);
    expect(list.json().data[0]).toMatchObject({
      id: made.json().contractId,
      status: 'CREATED',
      amount: 25_000,
      transportDate: '2026-01-10',
      description: 'Allada → usine',
      vehicle: { carType: 'CAMION' },
      carrier: { id: carrier.id },
    });
  });

  it('cancel releases the hold once; a canceled contract cannot be paid', async () => {
    const before = await walletOf(aggregator.wallet_id);
    const made = (
      await create(aggregator, {
        carrierId: carrier.id,
        vehicleId: carrier.vehicleId,
        transportDate: '2026-01-12',
        amount: 10_000,
      })
    ).json();
    expect((await walletOf(aggregator.wallet_id)).availableBalance).toBe(
      before.availableBalance - 10_000,
    );
    const url = `/api/contracts/carriage-contract/${made.contractId}`;
    expect((await call(otherAggregator, 'DELETE', url)).statusCode).toBe(403);
    const canceled = await call(aggregator, 'DELETE', url);
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json().status).toBe('CANCELED');
    expect((await walletOf(aggregator.wallet_id)).availableBalance).toBe(before.availableBalance);
    const events = await eventCount();
    expect((await call(aggregator, 'DELETE', url)).json().status).toBe('CANCELED');
    expect(await eventCount()).toBe(events);
    const pay = await call(aggregator, 'POST', `${url}/pay`);
    expect(pay.statusCode).toBe(409);
    expect(pay.json().message).toBe('Ce contrat de transport a été annulé');
    expect(await eventCount()).toBe(events);
  });

  it('pays the carrier exactly once under concurrent calls, never before the transport date', async () => {
    const carrierBefore = await walletOf(carrierUser.wallet_id);
    const before = await walletOf(aggregator.wallet_id);
    const future = (
      await create(aggregator, {
        carrierId: carrier.id,
        vehicleId: carrier.vehicleId,
        transportDate: '2099-01-01',
        amount: 5_000,
      })
    ).json();
    const early = await call(
      aggregator,
      'POST',
      `/api/contracts/carriage-contract/${future.contractId}/pay`,
    );
    expect(early.statusCode).toBe(400);

    const made = (
      await create(aggregator, {
        carrierId: carrier.id,
        vehicleId: carrier.vehicleId,
        transportDate: '2026-01-15',
        amount: 12_345,
      })
    ).json();
    const url = `/api/contracts/carriage-contract/${made.contractId}/pay`;
    expect((await call(otherAggregator, 'POST', url)).statusCode).toBe(403);
    expect((await call(carrierUser, 'POST', url)).statusCode).toBe(403);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call(aggregator, 'POST', url)),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().message).toBe(
      'Ce contrat de transport a déjà été payé',
    );
    const after = await walletOf(aggregator.wallet_id);
    const carrierAfter = await walletOf(carrierUser.wallet_id);
    expect(carrierAfter.balance).toBe(carrierBefore.balance + 12_345);
    expect(after.balance).toBe(before.balance - 12_345);
    // Only the future contract's 5 000 stays held.
    expect(after.availableBalance).toBe(before.availableBalance - 12_345 - 5_000);
    expect((await call(aggregator, 'DELETE', url.replace('/pay', ''))).statusCode).toBe(409);

    await project();
    const one = await call(carrierUser, 'GET', url.replace('/pay', ''));
    expect(one.statusCode).toBe(200);
    expect(one.json().status).toBe('PAID');
  });

  it('reach: the aggregator its own, the carrier its own, admins all, others refused', async () => {
    await project();
    const mine = await call(aggregator, 'GET', '/api/contracts/carriage-contract?limit=100');
    const total = mine.json().count;
    expect(total).toBeGreaterThanOrEqual(4);
    expect(
      (await call(otherAggregator, 'GET', '/api/contracts/carriage-contract')).json().count,
    ).toBe(0);
    const theirs = await call(carrierUser, 'GET', '/api/contracts/carriage-contract?status=PAID');
    expect(theirs.json().count).toBe(1);
    expect(
      (await call(otherCarrierUser, 'GET', '/api/contracts/carriage-contract')).json().count,
    ).toBe(0);
    const id = mine.json().data[0].id;
    expect(
      (await call(otherAggregator, 'GET', `/api/contracts/carriage-contract/${id}`)).statusCode,
    ).toBe(403);
    expect(
      (await call(otherCarrierUser, 'GET', `/api/contracts/carriage-contract/${id}`)).statusCode,
    ).toBe(403);
    expect((await call(grower, 'GET', '/api/contracts/carriage-contract')).statusCode).toBe(403);
    expect(
      (
        await call(
          aggregator,
          'GET',
          '/api/contracts/carriage-contract/00000000-0000-4000-8000-000000000000',
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (await call(carrierUser, 'POST', '/api/contracts/carriage-contract', {})).statusCode,
    ).toBe(403);
    const byUser = await call(
      carrierUser,
      'GET',
      `/api/contracts/carriage-contract/user/${carrierUser.id}`,
    );
    expect(byUser.json().count).toBe(4);
    expect(
      (await call(carrierUser, 'GET', `/api/contracts/carriage-contract/user/${aggregator.id}`))
        .statusCode,
    ).toBe(403);
    // The carrier's page tab (GET carrier/contracts/{id}, the carrier's id): the staff who see
    // the carrier read its carriage contracts; a grower is refused.
    const tab = await call(aggregator, 'GET', `/api/carrier/contracts/${carrier.id}?limit=100`);
    expect(tab.statusCode).toBe(200);
    expect(tab.json().count).toBe(4);
    expect(
      tab.json().data.every((c: { carrier: { id: string } }) => c.carrier.id === carrier.id),
    ).toBe(true);
    expect((await call(grower, 'GET', `/api/carrier/contracts/${carrier.id}`)).statusCode).toBe(
      403,
    );
    const anon = await app.inject({ method: 'POST', url: '/api/contracts/carriage-contract' });
    expect(anon.statusCode).toBe(401);
  });
});
