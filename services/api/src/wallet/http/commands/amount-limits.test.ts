import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { formatFcfa } from '../../domain/index.js';
import { seedCluster } from '../../../identity/test-support.js';
import { buildTestApp } from '../../../test-app.js';
import {
  countEvents,
  fund,
  supplyState,
  walletState,
  walletUser,
  withKey,
  type TestUser,
} from './test-support.js';
import type { Database } from '../../../database.js';

/**
 * Amounts have ceilings: one command moves at most MAX_COMMAND_AMOUNT (400 from the schema
 * above it, naming it), and no wallet goes past MAX_BALANCE (422 naming it, nothing written).
 */
describe('money ceilings: MAX_COMMAND_AMOUNT and MAX_BALANCE', () => {
  describe('with the defaults', () => {
    const testDb = useTestDatabase<Database>();
    let app: FastifyInstance;
    let superAdmin: TestUser;
    let aggregator: TestUser;
    let grower: TestUser;
    let second: TestUser;

    beforeAll(async () => {
      app = await buildTestApp(testDb.db);
      const cluster = await seedCluster(testDb.db, 'Cluster Plafond');
      superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
      aggregator = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { clusterId: cluster });
      grower = await walletUser(app, testDb.db, 'ROLE_GROWER', { clusterId: cluster });
      second = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    });
    afterAll(async () => {
      await app.close();
    });

    it('refuses every amount above 100,000,000 F CFA with a 400 naming the maximum', async () => {
      const message = `Le montant ne peut pas dépasser ${formatFcfa(100_000_000)}`;
      for (const amount of [100_000_001, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
        const requests = [
          {
            url: '/api/supply',
            payload: { amount, walletId: aggregator.walletId, accountType: 'BANK', bank: 'B' },
          },
          {
            url: '/api/wallet/make-transfer',
            payload: {
              source: aggregator.walletId,
              destination: grower.walletId,
              amount,
              reason: 'x',
            },
          },
          {
            url: `/api/wallet/make-debit/${aggregator.id}`,
            payload: { paiementMethod: 'MOBILE_MONEY', amount },
          },
          { url: '/api/financement', payload: { aggregatorId: second.id, amount } },
        ];
        for (const request of requests) {
          const res = await app.inject({
            method: 'POST',
            ...request,
            headers: withKey(aggregator),
          });
          expect(res.statusCode, `${request.url} ${amount}: ${res.body}`).toBe(400);
          expect(res.json().fields).toEqual({ amount: message });
          // The message a person reads names no field path ('amount: …').
          expect(res.json().message).toBe(message);
        }
      }
      expect(await countEvents(testDb.db, 'SupplyInitiated')).toBe(0);
    });

    it('accepts a supply of exactly the maximum', async () => {
      await fund(app, aggregator, superAdmin, 100_000_000);
      expect((await walletState(app, aggregator.walletId)).balance).toBe(100_000_000);
    });
  });

  describe('with MAX_COMMAND_AMOUNT=600000 and MAX_BALANCE=1000000', () => {
    const testDb = useTestDatabase<Database>();
    let app: FastifyInstance;
    let superAdmin: TestUser;
    let aggregator: TestUser;
    let other: TestUser;
    const full = `au-delà du plafond de ${formatFcfa(1_000_000)}`;

    beforeAll(async () => {
      app = await buildTestApp(testDb.db, {
        env: { MAX_COMMAND_AMOUNT: '600000', MAX_BALANCE: '1000000' },
      });
      const cluster = await seedCluster(testDb.db, 'Cluster Petit');
      superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
      aggregator = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { clusterId: cluster });
      other = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { clusterId: cluster });
      await fund(app, aggregator, superAdmin, 600_000);
      await fund(app, other, superAdmin, 600_000);
    });
    afterAll(async () => {
      await app.close();
    });

    const supply = (amount: number) =>
      app.inject({
        method: 'POST',
        url: '/api/supply',
        headers: withKey(aggregator),
        payload: { amount, walletId: aggregator.walletId, accountType: 'BANK', bank: 'B' },
      });
    const validate = (reference: string) =>
      app.inject({
        method: 'POST',
        url: '/api/supply/validate-bank-supply',
        headers: withKey(superAdmin),
        payload: { reference },
      });

    it('tells any signed-in user the configured ceilings (GET /api/wallet/limits)', async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/wallet/limits',
        headers: aggregator.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ maxCommandAmount: 600_000, maxBalance: 1_000_000 });
      expect((await app.inject({ method: 'GET', url: '/api/wallet/limits' })).statusCode).toBe(401);
    });

    it('the command maximum follows the configuration (400 above 600,000)', async () => {
      const res = await supply(600_001);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.amount).toBe(
        `Le montant ne peut pas dépasser ${formatFcfa(600_000)}`,
      );
    });

    it('no supply, validation or transfer takes a wallet past 1,000,000 (422, nothing written)', async () => {
      const one = (await supply(400_000)).json().reference as string;
      const two = (await supply(400_000)).json().reference as string;
      expect((await validate(one)).statusCode).toBe(200);
      expect((await walletState(app, aggregator.walletId)).balance).toBe(1_000_000);

      const refusedCredit = await validate(two);
      expect(refusedCredit.statusCode, refusedCredit.body).toBe(422);
      expect(refusedCredit.json()).toMatchObject({
        message: `Ce crédit porterait le solde du portefeuille ${full}`,
        reason: 'BALANCE_ABOVE_MAXIMUM',
        maxBalance: 1_000_000,
      });
      expect((await supplyState(app, two)).status).toBe('INIT');

      const refusedSupply = await supply(1);
      expect(refusedSupply.statusCode).toBe(422);
      expect(refusedSupply.json().message).toBe(
        `Cette opération porterait le solde de votre portefeuille ${full}`,
      );

      const sent = await countEvents(testDb.db, 'TransferSent');
      const refusedTransfer = await app.inject({
        method: 'POST',
        url: '/api/wallet/make-transfer',
        headers: withKey(other),
        payload: {
          source: other.walletId,
          destination: aggregator.walletId,
          amount: 1,
          reason: 'Trop',
        },
      });
      expect(refusedTransfer.statusCode, refusedTransfer.body).toBe(422);
      expect(refusedTransfer.json().message).toBe(
        `Cette opération porterait le solde du portefeuille du destinataire ${full}`,
      );
      expect(await countEvents(testDb.db, 'TransferSent')).toBe(sent);
      expect((await walletState(app, aggregator.walletId)).balance).toBe(1_000_000);

      // Once the wallet has room again, the waiting supply is credited.
      const withdrawal = await app.inject({
        method: 'POST',
        url: `/api/wallet/make-debit/${aggregator.id}`,
        headers: withKey(aggregator),
        payload: { paiementMethod: 'MOBILE_MONEY', amount: 500_000 },
      });
      expect(withdrawal.statusCode, withdrawal.body).toBe(201);
      expect((await validate(two)).json()).toMatchObject({ status: 'SUCCESS', credited: true });
      expect((await walletState(app, aggregator.walletId)).balance).toBe(900_000);
    });
  });
});
