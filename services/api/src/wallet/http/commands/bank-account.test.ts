import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../../../test-app.js';
import { walletUser, withKey, type TestUser } from './test-support.js';
import type { Database } from '../../../database.js';

describe('GET /api/supply/bank-account: the accepted bank comes from configuration', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let aggregator: TestUser;
  let grower: TestUser;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db, {
      env: { SUPPLY_BANK_NAME: 'Ecobank Bénin', SUPPLY_BANK_ACCOUNT: 'BJ0990100100000099999999' },
    });
    aggregator = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    grower = await walletUser(app, testDb.db, 'ROLE_GROWER');
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers the configured name and account number, the same as a bank supply answers', async () => {
    const res = await app.inject({ url: '/api/supply/bank-account', headers: withKey(aggregator) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      accountNumber: 'BJ0990100100000099999999',
      bankName: 'Ecobank Bénin',
    });
    const created = await app.inject({
      method: 'POST',
      url: '/api/supply',
      headers: withKey(aggregator, 'bank-account-1'),
      payload: {
        amount: 10_000,
        walletId: aggregator.walletId,
        accountType: 'BANK',
        bank: 'Ecobank Bénin',
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().bankAccountNumber).toEqual(res.json());
  });

  it('is for the roles that top up: anonymous 401, a grower 403', async () => {
    expect((await app.inject({ url: '/api/supply/bank-account' })).statusCode).toBe(401);
    const denied = await app.inject({ url: '/api/supply/bank-account', headers: withKey(grower) });
    expect(denied.statusCode).toBe(403);
  });
});
