import { describe, expect, it } from 'vitest';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import { clustersDemoStep } from '../../actors/clusters/demo/clusters.js';
import { cooperativesDemoStep } from '../../actors/cooperatives/demo/cooperatives.js';
import { growersDemoStep } from '../../actors/growers/demo/growers.js';
import type { Database } from '../../database.js';
import { identityDemoStep } from '../../identity/demo/identity.js';
import { product } from '../../modules.js';
import { loadDemoSteps } from '../../test-app.js';
import { walletDemoStep } from '../../wallet/demo/wallet.js';
import { contractsProjector } from '../read-model/index.js';
import { contractsDemoStep } from './contracts.js';

describe('contracts demo data', () => {
  const testDb = useTestDatabase<Database>();

  it('delivery contracts in every status through the commands, one COMPLETED netting an advance, once', async () => {
    const logger = createLogger('silent', false);
    const steps = [
      identityDemoStep,
      walletDemoStep,
      clustersDemoStep,
      cooperativesDemoStep,
      growersDemoStep,
      contractsDemoStep,
    ];
    expect(await loadDemoSteps({ db: testDb.db, logger }, steps)).toContain('contracts-delivery');
    expect(await loadDemoSteps({ db: testDb.db, logger }, steps)).toEqual([]);
    await catchUp(testDb.db, contractsProjector, {
      decode: catalogueDecoder(product.catalogue),
    });
    const rows = await testDb.db
      .selectFrom('delivery_contracts')
      .select(['status', 'delivered_amount', 'recovered_amount', 'grower_net'])
      .orderBy('created_at')
      .execute();
    const statuses = rows.map((r) => r.status).sort();
    expect(statuses).toEqual([
      'CANCELED',
      'COMPLETED',
      'CONFIRMED',
      'DELIVERED',
      'DELIVERED',
      'OUTTIME',
      'PENDING',
    ]);
    expect(rows.find((r) => r.status === 'COMPLETED')).toMatchObject({
      delivered_amount: 150_000,
      recovered_amount: 40_000,
      grower_net: 110_000,
    });
    const debt = await testDb.db
      .selectFrom('grower_debts')
      .select(['principal', 'recovered'])
      .where('id', '=', 'demo-advance-ananas-1')
      .executeTakeFirstOrThrow();
    expect(debt).toEqual({ principal: 40_000, recovered: 40_000 });
  }, 120_000);
});
