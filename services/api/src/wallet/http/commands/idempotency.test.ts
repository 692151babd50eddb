import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_REUSED as REUSED, requestFingerprint } from '@filiere/event-store';
import { useTestDatabase } from '@filiere/platform/testing';
import { seedCluster } from '../../../identity/test-support.js';
import { buildTestApp } from '../../../test-app.js';
import {
  countEvents,
  fund,
  walletState,
  walletUser,
  withKey,
  type TestUser,
} from './test-support.js';
import type { Database } from '../../../database.js';

const MISSING = 'L’en-tête Idempotency-Key est obligatoire pour une opération sur le portefeuille';

/**
 * Every money command carries an `Idempotency-Key` (400 without), and a key answers the
 * first result only for the same request: reused with another body or path, it is a 422
 * naming the conflict, and nothing is written.
 */
describe('Idempotency-Key on money commands', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let superAdmin: TestUser;
  let aggregator: TestUser;
  let second: TestUser;
  let grower: TestUser;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    const cluster = await seedCluster(testDb.db, 'Cluster Zè');
    superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    aggregator = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { clusterId: cluster });
    second = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    grower = await walletUser(app, testDb.db, 'ROLE_GROWER', { clusterId: cluster });
    await fund(app, aggregator, superAdmin, 1_000_000);
  });
  afterAll(async () => {
    await app.close();
  });

  /** A bank supply of the aggregator, not validated yet. */
  async function pendingBankSupply(): Promise<string> {
    const res = await app.inject({
      method: 'POST',
      url: '/api/supply',
      headers: withKey(aggregator),
      payload: { amount: 5_000, walletId: aggregator.walletId, accountType: 'BANK', bank: 'BAB' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().reference as string;
  }

  /** A sandbox widget payment of the aggregator, paid: its transaction id and reference. */
  async function paidWidgetSupply(): Promise<{ transactionId: string; reference: string }> {
    const created = await app.inject({
      method: 'POST',
      url: '/api/supply',
      headers: withKey(aggregator),
      payload: { amount: 7_000, walletId: aggregator.walletId, accountType: 'MOBILE_MONEY' },
    });
    const reference = created.json().reference as string;
    const paid = await app.inject({
      method: 'POST',
      url: `/api/sandbox/pay/${reference}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=SUCCESS&returnTo=%2Fapprovisionnements',
    });
    const location = new URL(String(paid.headers.location), 'http://x');
    return { transactionId: location.searchParams.get('transactionId')!, reference };
  }

  it('refuses every money command without a key (400, French message, nothing written)', async () => {
    const bankReference = await pendingBankSupply();
    const { transactionId } = await paidWidgetSupply();
    const before = await testDb.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const commands: { who: TestUser; method: 'GET' | 'POST'; url: string; payload?: object }[] = [
      {
        who: aggregator,
        method: 'POST',
        url: '/api/supply',
        payload: { amount: 1_000, walletId: aggregator.walletId, accountType: 'BANK', bank: 'B' },
      },
      { who: aggregator, method: 'GET', url: `/api/supply/verify/${transactionId}` },
      {
        who: superAdmin,
        method: 'GET',
        url: `/api/supply/validate-bank-supply/${bankReference}`,
      },
      {
        who: superAdmin,
        method: 'POST',
        url: '/api/supply/validate-bank-supply',
        payload: { reference: bankReference },
      },
      {
        who: aggregator,
        method: 'POST',
        url: '/api/wallet/make-transfer',
        payload: {
          source: aggregator.walletId,
          destination: grower.walletId,
          amount: 100,
          reason: 'Avance',
        },
      },
      {
        who: aggregator,
        method: 'POST',
        url: `/api/wallet/make-debit/${aggregator.id}`,
        payload: { paiementMethod: 'MOBILE_MONEY', amount: 100 },
      },
      {
        who: aggregator,
        method: 'POST',
        url: '/api/financement',
        payload: { aggregatorId: second.id, amount: 100 },
      },
    ];
    for (const c of commands) {
      for (const key of [undefined, '']) {
        const res = await app.inject({
          method: c.method,
          url: c.url,
          headers: key === undefined ? c.who.headers : { ...c.who.headers, 'idempotency-key': key },
          ...(c.payload ? { payload: c.payload } : {}),
        });
        expect(res.statusCode, `${c.method} ${c.url}: ${res.body}`).toBe(400);
        expect(res.json().message).toContain(MISSING);
        expect(res.json().fields).toEqual({ 'idempotency-key': MISSING });
      }
    }
    const after = await testDb.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('a transfer repeated with its key answers the first result; with another body, 422', async () => {
    const key = randomUUID();
    const send = (amount: number, reason = 'Avance') =>
      app.inject({
        method: 'POST',
        url: '/api/wallet/make-transfer',
        headers: withKey(aggregator, key),
        payload: { source: aggregator.walletId, destination: grower.walletId, amount, reason },
      });
    const first = await send(1_000);
    expect(first.statusCode).toBe(201);
    const repeat = await send(1_000);
    expect(repeat.statusCode).toBe(201);
    expect(repeat.json()).toEqual(first.json());

    const before = await countEvents(testDb.db, 'TransferSent');
    for (const res of [await send(2_000), await send(1_000, 'Autre motif')]) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ message: REUSED, reason: 'IDEMPOTENCY_KEY_REUSED' });
    }
    expect(await countEvents(testDb.db, 'TransferSent')).toBe(before);
    expect((await walletState(app, grower.walletId)).balance).toBe(1_000);
  });

  it('records a key as `<userId>:transfer:<key>` with its request fingerprint, so keys recorded before still answer', async () => {
    const key = randomUUID();
    const payload = {
      source: aggregator.walletId,
      destination: grower.walletId,
      amount: 150,
      reason: 'Avance',
    };
    const send = () =>
      app.inject({
        method: 'POST',
        url: '/api/wallet/make-transfer',
        headers: withKey(aggregator, key),
        payload,
      });
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const row = await testDb.db
      .selectFrom('commands')
      .select('result')
      .where('key', '=', `${aggregator.id}:transfer:${key}`)
      .executeTakeFirstOrThrow();
    expect(row.result).toMatchObject({
      $fingerprint: requestFingerprint('transfer', payload),
      $result: { reference: first.json().reference, amount: 150 },
    });

    // A row as recorded before fingerprints existed answers its result as it is.
    const older = randomUUID();
    const recorded = { reference: 'TRF-RECORDED', amount: 150, balance: 1, availableBalance: 1 };
    await testDb.db
      .insertInto('commands')
      .values({
        key: `${aggregator.id}:transfer:${older}`,
        result: JSON.stringify(recorded),
        positions: JSON.stringify([]),
      })
      .execute();
    const before = await countEvents(testDb.db, 'TransferSent');
    const repeat = await app.inject({
      method: 'POST',
      url: '/api/wallet/make-transfer',
      headers: withKey(aggregator, older),
      payload,
    });
    expect(repeat.statusCode, repeat.body).toBe(201);
    expect(repeat.json()).toMatchObject({ reference: 'TRF-RECORDED' });
    expect(await countEvents(testDb.db, 'TransferSent')).toBe(before);
  });

  it('two requests with one key in the same instant: one takes effect, the other body is refused', async () => {
    const key = randomUUID();
    const before = await countEvents(testDb.db, 'TransferSent');
    const answers = await Promise.all(
      [300, 400].map((amount) =>
        app.inject({
          method: 'POST',
          url: '/api/wallet/make-transfer',
          headers: withKey(aggregator, key),
          payload: {
            source: aggregator.walletId,
            destination: grower.walletId,
            amount,
            reason: 'x',
          },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 422]);
    expect(await countEvents(testDb.db, 'TransferSent')).toBe(before + 1);
  });

  it('a withdrawal key reused with another path or body is refused (422)', async () => {
    const key = randomUUID();
    const debit = (id: string, amount: number) =>
      app.inject({
        method: 'POST',
        url: `/api/wallet/make-debit/${id}`,
        headers: withKey(aggregator, key),
        payload: { paiementMethod: 'MOBILE_MONEY', amount },
      });
    expect((await debit(aggregator.id, 500)).statusCode).toBe(201);
    expect((await debit(aggregator.id, 500)).statusCode).toBe(201);
    const before = await countEvents(testDb.db, 'WithdrawalDebited');
    expect((await debit(aggregator.walletId, 500)).statusCode).toBe(422);
    expect((await debit(aggregator.id, 501)).statusCode).toBe(422);
    expect(await countEvents(testDb.db, 'WithdrawalDebited')).toBe(before);
  });

  it('supply, financing, validation and verification keys are tied to their request too', async () => {
    const supplyKey = randomUUID();
    const supply = (amount: number) =>
      app.inject({
        method: 'POST',
        url: '/api/supply',
        headers: withKey(aggregator, supplyKey),
        payload: { amount, walletId: aggregator.walletId, accountType: 'BANK', bank: 'BAB' },
      });
    const created = await supply(10_000);
    expect(created.statusCode).toBe(201);
    expect((await supply(10_000)).json().reference).toBe(created.json().reference);
    expect((await supply(20_000)).statusCode).toBe(422);

    const financingKey = randomUUID();
    const finance = (amount: number) =>
      app.inject({
        method: 'POST',
        url: '/api/financement',
        headers: withKey(aggregator, financingKey),
        payload: { aggregatorId: second.id, amount },
      });
    expect((await finance(300)).statusCode).toBe(201);
    expect((await finance(301)).statusCode).toBe(422);
    expect((await walletState(app, second.walletId)).balance).toBe(300);

    const validationKey = randomUUID();
    const [one, two] = [await pendingBankSupply(), await pendingBankSupply()];
    const validate = (reference: string) =>
      app.inject({
        method: 'POST',
        url: '/api/supply/validate-bank-supply',
        headers: withKey(superAdmin, validationKey),
        payload: { reference },
      });
    expect((await validate(one)).json()).toMatchObject({ reference: one, credited: true });
    const other = await validate(two);
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json().message).toBe(REUSED);

    const verifyKey = randomUUID();
    const first = await paidWidgetSupply();
    const secondPayment = await paidWidgetSupply();
    const verify = (transactionId: string) =>
      app.inject({
        method: 'GET',
        url: `/api/supply/verify/${transactionId}`,
        headers: withKey(aggregator, verifyKey),
      });
    expect((await verify(first.transactionId)).json()).toMatchObject({ credited: true });
    expect((await verify(secondPayment.transactionId)).statusCode).toBe(422);
  });
});
