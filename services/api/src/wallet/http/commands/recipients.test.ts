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

/**
 * Money only goes to accounts that can use it: a transfer or a financing to a deactivated,
 * never-activated or deleted user is refused (422, nothing written), and a user whose wallet
 * still holds money cannot be deleted (422), so no money is stranded in a wallet nobody can
 * reach.
 */
describe('recipients that cannot use their wallet', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let superAdmin: TestUser;
  let aggregator: TestUser;
  let cluster: string;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    cluster = await seedCluster(testDb.db, 'Cluster Allada');
    superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    aggregator = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { clusterId: cluster });
    await fund(app, aggregator, superAdmin, 1_000_000);
  });
  afterAll(async () => {
    await app.close();
  });

  const transfer = (to: TestUser) =>
    app.inject({
      method: 'POST',
      url: '/api/wallet/make-transfer',
      headers: withKey(aggregator),
      payload: {
        source: aggregator.walletId,
        destination: to.walletId,
        amount: 1_000,
        reason: 'Avance',
      },
    });
  const financing = (to: TestUser) =>
    app.inject({
      method: 'POST',
      url: '/api/financement',
      headers: withKey(aggregator),
      payload: { aggregatorId: to.id, amount: 1_000 },
    });
  const remove = (user: TestUser) =>
    app.inject({ method: 'DELETE', url: `/api/users/${user.id}`, headers: superAdmin.headers });
  const setActive = (user: TestUser, active: boolean) =>
    testDb.db.updateTable('users').set({ is_active: active }).where('id', '=', user.id).execute();

  async function expectRefused(
    res: Awaited<ReturnType<typeof transfer>>,
    message: string,
    before: { sent: number; balance: number },
  ) {
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe(message);
    expect(await countEvents(testDb.db, 'TransferSent')).toBe(before.sent);
    expect((await walletState(app, aggregator.walletId)).balance).toBe(before.balance);
  }

  const snapshot = async () => ({
    sent: await countEvents(testDb.db, 'TransferSent'),
    balance: (await walletState(app, aggregator.walletId)).balance,
  });

  it('refuses a transfer to a deactivated user, and accepts it again once reactivated', async () => {
    const grower = await walletUser(app, testDb.db, 'ROLE_GROWER', { clusterId: cluster });
    await setActive(grower, false);
    await expectRefused(
      await transfer(grower),
      'Le compte du destinataire n’est pas actif',
      await snapshot(),
    );
    await setActive(grower, true);
    expect((await transfer(grower)).statusCode).toBe(201);
  });

  it('refuses a transfer to a self-registered user who never activated the account', async () => {
    const pending = await walletUser(app, testDb.db, 'ROLE_GROWER', { clusterId: cluster });
    await testDb.db
      .updateTable('users')
      .set({ is_active: false, self_registered: true, password_hash: null })
      .where('id', '=', pending.id)
      .execute();
    await expectRefused(
      await transfer(pending),
      'Le compte du destinataire n’est pas actif',
      await snapshot(),
    );
  });

  it('refuses a transfer to a deleted user (by wallet id or user id), with a 422', async () => {
    const grower = await walletUser(app, testDb.db, 'ROLE_GROWER', { clusterId: cluster });
    expect((await remove(grower)).statusCode).toBe(204);
    await expectRefused(
      await transfer(grower),
      'Le compte du destinataire a été supprimé',
      await snapshot(),
    );
    const byUserId = await app.inject({
      method: 'POST',
      url: '/api/wallet/make-transfer',
      headers: withKey(aggregator),
      payload: { source: aggregator.walletId, destination: grower.id, amount: 1, reason: 'x' },
    });
    expect(byUserId.statusCode).toBe(422);
  });

  it('refuses a financing to a deactivated or deleted aggregator', async () => {
    const other = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    await setActive(other, false);
    const inactive = await financing(other);
    expect(inactive.statusCode, inactive.body).toBe(422);
    expect(inactive.json().message).toBe('Le compte du bénéficiaire n’est pas actif');
    await setActive(other, true);
    expect((await remove(other)).statusCode).toBe(204);
    const deleted = await financing(other);
    expect(deleted.statusCode, deleted.body).toBe(422);
    expect(deleted.json().message).toBe('Le compte du bénéficiaire a été supprimé');
    expect(await countEvents(testDb.db, 'FinancingSent')).toBe(0);
  });

  it('refuses to delete a user whose wallet balance is not zero; deletes it once emptied', async () => {
    const grower = await walletUser(app, testDb.db, 'ROLE_GROWER', { clusterId: cluster });
    expect((await transfer(grower)).statusCode).toBe(201);
    const refused = await remove(grower);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().message).toBe(
      'Impossible de supprimer un utilisateur dont le solde n’est pas nul',
    );
    const row = await testDb.db
      .selectFrom('users')
      .select(['deleted_at', 'is_active'])
      .where('id', '=', grower.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ deleted_at: null, is_active: true });

    // The grower sends the money back; the wallet is empty and the account can go.
    const back = await app.inject({
      method: 'POST',
      url: '/api/wallet/make-transfer',
      headers: withKey(grower),
      payload: {
        source: grower.walletId,
        destination: aggregator.walletId,
        amount: 1_000,
        reason: 'Retour',
      },
    });
    expect(back.statusCode, back.body).toBe(201);
    expect((await remove(grower)).statusCode).toBe(204);
  });

  it('refuses to delete a user while one of its withdrawals is being paid out', async () => {
    const seller = await walletUser(app, testDb.db, 'ROLE_GROWER', { clusterId: cluster });
    expect((await transfer(seller)).statusCode).toBe(201);
    const debit = await app.inject({
      method: 'POST',
      url: `/api/wallet/make-debit/${seller.id}`,
      headers: withKey(seller),
      payload: { paiementMethod: 'MOBILE_MONEY', amount: 1_000 },
    });
    expect(debit.statusCode, debit.body).toBe(201);
    expect((await walletState(app, seller.walletId)).balance).toBe(0);
    const refused = await remove(seller);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().message).toBe(
      'Impossible de supprimer un utilisateur dont un retrait est en cours',
    );
    // Once the payout has settled, nothing can come back to the wallet.
    while ((await app.wallet.runner.runDue()) > 0);
    expect((await remove(seller)).statusCode).toBe(204);
  });
});
