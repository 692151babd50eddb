import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('POST /api/wallet/make-transfer', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let superAdmin: TestUser;
  let aggregator: TestUser;
  let grower: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    const cluster = await seedCluster(testDb.db, 'Cluster A');
    const other = await seedCluster(testDb.db, 'Cluster B');
    superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    aggregator = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { clusterId: cluster });
    grower = await walletUser(app, testDb.db, 'ROLE_GROWER', { clusterId: cluster });
    outsider = await walletUser(app, testDb.db, 'ROLE_GROWER', { clusterId: other });
    await fund(app, aggregator, superAdmin, 100_000);
  });
  afterAll(async () => {
    await app.close();
  });

  const transfer = (from: TestUser, payload: Record<string, unknown>, key?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/wallet/make-transfer',
      headers: withKey(from, key),
      payload,
    });

  it('moves money to a grower of the same cluster (destination by wallet id or user id)', async () => {
    const byWallet = await transfer(aggregator, {
      source: aggregator.walletId,
      destination: grower.walletId,
      amount: 10_000,
      reason: 'Avance intrants',
    });
    expect(byWallet.statusCode).toBe(201);
    expect(byWallet.json()).toMatchObject({
      operationType: 'TRANSFER',
      status: 'SUCCESS',
      amount: 10_000,
      balance: 90_000,
      availableBalance: 90_000,
      destination: { userId: grower.id, walletId: grower.walletId },
    });
    expect(byWallet.json().reference).toMatch(/^TRF-/);
    const byUser = await transfer(aggregator, {
      source: aggregator.walletId,
      destination: grower.id,
      amount: 5_000,
      reason: 'Paiement',
    });
    expect(byUser.statusCode).toBe(201);
    expect((await walletState(app, aggregator.walletId)).balance).toBe(85_000);
    expect((await walletState(app, grower.walletId)).balance).toBe(15_000);
  });

  it('answers 422 with the missing amount when the available balance is short', async () => {
    const before = await walletState(app, aggregator.walletId);
    const res = await transfer(aggregator, {
      source: aggregator.walletId,
      destination: grower.walletId,
      amount: before.availableBalance + 1_234,
      reason: 'Trop',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ statusCode: 422, missingAmount: 1_234 });
    expect((await walletState(app, aggregator.walletId)).balance).toBe(before.balance);
  });

  it('a refused transfer writes nothing, not even the open of a wallet never used', async () => {
    const cluster = await seedCluster(testDb.db, 'Cluster C');
    const newcomer = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { clusterId: cluster });
    const peer = await walletUser(app, testDb.db, 'ROLE_GROWER', { clusterId: cluster });
    const head = async () =>
      Number(
        (
          await testDb.db
            .selectFrom('events')
            .select((eb) => eb.fn.max('position').as('p'))
            .executeTakeFirstOrThrow()
        ).p ?? 0,
      );
    const before = await head();
    const refused = await transfer(newcomer, {
      source: newcomer.walletId,
      destination: peer.walletId,
      amount: 500,
      reason: 'Sans fonds',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ missingAmount: 500 });
    expect(await head()).toBe(before);
    // Accepted, the first use opens both wallets in the same append as the movement.
    await fund(app, newcomer, superAdmin, 1_000);
    const opens = await countEvents(testDb.db, 'WalletOpened');
    const accepted = await transfer(newcomer, {
      source: newcomer.walletId,
      destination: peer.walletId,
      amount: 500,
      reason: 'Avance',
    });
    expect(accepted.statusCode).toBe(201);
    expect(await countEvents(testDb.db, 'WalletOpened')).toBe(opens + 1);
    expect((await walletState(app, peer.walletId)).balance).toBe(500);
  });

  it('refuses a recipient outside the cluster (403), except for admins', async () => {
    const res = await transfer(aggregator, {
      source: aggregator.walletId,
      destination: outsider.walletId,
      amount: 100,
      reason: 'Hors cluster',
    });
    expect(res.statusCode).toBe(403);
    await fund(app, superAdmin, superAdmin, 1_000);
    const admin = await transfer(superAdmin, {
      source: superAdmin.walletId,
      destination: outsider.id,
      amount: 100,
      reason: 'Support',
    });
    expect(admin.statusCode).toBe(201);
  });

  it('refuses another user’s wallet as source (403)', async () => {
    const res = await transfer(grower, {
      source: aggregator.walletId,
      destination: grower.walletId,
      amount: 100,
      reason: 'Vol',
    });
    expect(res.statusCode).toBe(403);
  });

  it('validates the input: 400 with French field messages, 404 unknown recipient, 401', async () => {
    const bad = await transfer(aggregator, {
      source: aggregator.walletId,
      destination: grower.walletId,
      amount: 0,
      reason: '',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ amount: 'Entré non valide' });
    const frac = await transfer(aggregator, {
      source: aggregator.walletId,
      destination: grower.walletId,
      amount: 10.5,
      reason: 'x',
    });
    expect(frac.statusCode).toBe(400);
    const notUuid = await transfer(aggregator, {
      source: aggregator.walletId,
      destination: 'abc',
      amount: 1,
      reason: 'x',
    });
    expect(notUuid.statusCode).toBe(400);
    const unknown = await transfer(aggregator, {
      source: aggregator.walletId,
      destination: '00000000-0000-4000-8000-000000000000',
      amount: 1,
      reason: 'x',
    });
    expect(unknown.statusCode).toBe(404);
    const self = await transfer(aggregator, {
      source: aggregator.walletId,
      destination: aggregator.walletId,
      amount: 1,
      reason: 'x',
    });
    expect(self.statusCode).toBe(400);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/wallet/make-transfer',
      headers: { 'idempotency-key': 'anonymous' },
      payload: {
        source: aggregator.walletId,
        destination: grower.walletId,
        amount: 1,
        reason: 'x',
      },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('repeated 5× with one Idempotency-Key: one transfer, the same answer each time', async () => {
    const sentBefore = await countEvents(testDb.db, 'TransferSent');
    const before = (await walletState(app, aggregator.walletId)).balance;
    const payload = {
      source: aggregator.walletId,
      destination: grower.walletId,
      amount: 700,
      reason: 'Une fois',
    };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => transfer(aggregator, payload, 'same-key-1')),
    );
    const again = await transfer(aggregator, payload, 'same-key-1');
    for (const res of [...answers, again]) {
      expect(res.statusCode).toBe(201);
      expect(res.json().reference).toBe(answers[0]!.json().reference);
    }
    expect(await countEvents(testDb.db, 'TransferSent')).toBe(sentBefore + 1);
    expect((await walletState(app, aggregator.walletId)).balance).toBe(before - 700);
    // The key is scoped by user: another user's same key is another command.
    const grower2 = await transfer(
      grower,
      { source: grower.walletId, destination: aggregator.walletId, amount: 1, reason: 'Retour' },
      'same-key-1',
    );
    expect(grower2.statusCode).toBe(201);
    expect(grower2.json().reference).not.toBe(answers[0]!.json().reference);
  });
});
