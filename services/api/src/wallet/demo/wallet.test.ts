import { describe, expect, it } from 'vitest';
import { createLogger, parseConfig } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catchUp } from '@filiere/projections';
import { buildApp } from '../../app.js';
import type { Database } from '../../database.js';
import { DEMO_SECOND_AGGREGATOR, findDemoUser } from '../../identity/index.js';
import { walletProjectors } from '../read-model/index.js';
import { walletDecoder } from '../read-model/test-support.js';
import { product } from '../../modules.js';
import { loadDemoSteps } from '../../test-app.js';

const loadDemoData = loadDemoSteps;

describe('wallet demo data', () => {
  const testDb = useTestDatabase<Database>();

  it('funds the aggregator through real commands, pays the producteur, refunds the failed withdrawal, funds the second aggregator', async () => {
    const logger = createLogger('silent', false);
    // The payments go to the demo grower: they run right after the actors' growers step.
    const steps = product.demo.slice(
      0,
      product.demo.findIndex((s) => s.name === 'wallet-grower-payments') + 1,
    );
    expect(await loadDemoData({ db: testDb.db, logger }, steps)).toEqual([
      'identity',
      'wallet',
      'actors-clusters',
      'actors-cooperatives',
      'actors-growers',
      'wallet-grower-payments',
    ]);
    expect(await loadDemoData({ db: testDb.db, logger }, steps)).toEqual([]);

    const aggregator = await findDemoUser(testDb.db, 'agregateur@demo.filiere.bj');
    const grower = await findDemoUser(testDb.db, 'producteur@demo.filiere.bj');
    const second = await findDemoUser(testDb.db, DEMO_SECOND_AGGREGATOR);
    const app = await buildApp({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      db: testDb.db,
      logger,
    });
    const fold = async (walletId: string) => {
      let balance = 0;
      for (const e of await app.eventStore.readStream(`wallet-${walletId}`)) {
        const data = e.data as { amount: number; postings?: { account: string; amount: number }[] };
        if (data.postings) {
          balance += data.postings
            .filter((p) => p.account === `wallet:${walletId}`)
            .reduce((s, p) => s + p.amount, 0);
        } else if (e.type.endsWith('Received')) balance += data.amount;
      }
      return balance;
    };
    // 2 500 000 + 1 000 000 − 250 000 transferred − 200 000 paid out (the 120 000 refunded)
    // − 100 000 financing.
    expect(await fold(aggregator.walletId)).toBe(2_950_000);
    expect(await fold(grower.walletId)).toBe(250_000);
    expect(await fold(second.walletId)).toBe(100_000);
    // The producteur is a grower of the aggregator's cluster, paid after it was registered.
    const record = await testDb.db
      .selectFrom('growers')
      .select(['id', 'cluster_id'])
      .where('user_id', '=', grower.id)
      .executeTakeFirstOrThrow();
    expect(record.cluster_id).toBe(aggregator.clusterId);
    const registered = await testDb.db
      .selectFrom('events')
      .select('recorded_at')
      .where('type', '=', 'GrowerRegistered')
      .where('stream_id', '=', `grower-${record.id}`)
      .executeTakeFirstOrThrow();
    const payments = await testDb.db
      .selectFrom('events')
      .select('recorded_at')
      .where('type', '=', 'TransferReceived')
      .where('stream_id', '=', `wallet-${grower.walletId}`)
      .execute();
    expect(payments).toHaveLength(3);
    for (const p of payments) {
      expect(p.recorded_at.getTime()).toBeGreaterThan(registered.recorded_at.getTime());
    }
    const types = (
      await testDb.db.selectFrom('events').select('type').orderBy('position').execute()
    ).map((r) => r.type);
    expect(types).toEqual(
      expect.arrayContaining(['WithdrawalCompleted', 'WithdrawalFailed', 'WithdrawalRefunded']),
    );
    expect(types.filter((t) => t === 'SupplyInitiated')).toHaveLength(3);
    expect(types.filter((t) => t === 'SupplySucceeded')).toHaveLength(2);
    // Growers and aggregators carry a NIP (the transaction detail shows the beneficiary's).
    const nips = await testDb.db
      .selectFrom('users')
      .select(['email', 'nip'])
      .where('email', 'in', [
        'agregateur@demo.filiere.bj',
        'producteur@demo.filiere.bj',
        DEMO_SECOND_AGGREGATOR,
      ])
      .execute();
    for (const row of nips) expect(row.nip, row.email ?? '').toMatch(/^\d{10}$/);
    for (const projector of walletProjectors) {
      await catchUp(testDb.db, projector, { decode: walletDecoder });
    }
    const caller = { sub: aggregator.id, role: 'ROLE_INDUSTRIAL' as const };
    const auth = { authorization: `Bearer ${app.jwt.sign(caller)}` };
    const list = await app.inject({ url: '/api/transaction?q=rejets', headers: auth });
    const detail = await app.inject({
      url: `/api/transaction/${list.json().data[0].id}`,
      headers: auth,
    });
    expect(detail.json().beneficiary).toMatchObject({ nip: '1098765432' });
    await app.close();
  });
});
