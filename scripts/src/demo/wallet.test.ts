import { describe, expect, it } from 'vitest';
import { buildApp } from '@filiere/api';
import { createLogger, parseConfig } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { findDemoUser, identityDemoStep } from './identity.js';
import { loadDemoData } from './load.js';
import { walletDemoStep } from './wallet.js';

describe('wallet demo data', () => {
  const testDb = useTestDatabase();

  it('funds the aggregator through real commands, pays the producteur, refunds the failed withdrawal', async () => {
    const logger = createLogger('silent', false);
    const steps = [identityDemoStep, walletDemoStep];
    expect(await loadDemoData({ db: testDb.db, logger }, steps)).toEqual(['identity', 'wallet']);
    expect(await loadDemoData({ db: testDb.db, logger }, steps)).toEqual([]);

    const aggregator = await findDemoUser(testDb.db, 'agregateur@demo.filiere.bj');
    const grower = await findDemoUser(testDb.db, 'producteur@demo.filiere.bj');
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
    // 2 500 000 + 1 000 000 − 250 000 transferred − 200 000 paid out (the 120 000 refunded).
    expect(await fold(aggregator.walletId)).toBe(3_050_000);
    expect(await fold(grower.walletId)).toBe(250_000);
    const types = (
      await testDb.db.selectFrom('events').select('type').orderBy('position').execute()
    ).map((r) => r.type);
    expect(types).toEqual(
      expect.arrayContaining(['WithdrawalCompleted', 'WithdrawalFailed', 'WithdrawalRefunded']),
    );
    expect(types.filter((t) => t === 'SupplyInitiated')).toHaveLength(3);
    expect(types.filter((t) => t === 'SupplySucceeded')).toHaveLength(2);
    await app.close();
  });
});
