import { describe, expect, it } from 'vitest';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { clustersDemoStep } from '../../../actors/clusters/demo/clusters.js';
import { cooperativesDemoStep } from '../../../actors/cooperatives/demo/cooperatives.js';
import { growersDemoStep } from '../../../actors/growers/demo/growers.js';
import type { Database } from '../../../database.js';
import { identityDemoStep } from '../../../identity/demo/identity.js';
import { loadDemoSteps } from '../../../test-app.js';
import { walletDemoStep } from '../../../wallet/demo/wallet.js';
import { contractBatchesDemoStep, DEMO_BATCH } from './batches.js';

describe('contract batches demo data', () => {
  const testDb = useTestDatabase<Database>();

  it('one parent contract with a sub-contract per grower for the demo aggregator, once', async () => {
    const logger = createLogger('silent', false);
    const steps = [
      identityDemoStep,
      walletDemoStep,
      clustersDemoStep,
      cooperativesDemoStep,
      growersDemoStep,
      contractBatchesDemoStep,
    ];
    expect(await loadDemoSteps({ db: testDb.db, logger }, steps)).toContain('contracts-batches');
    expect(await loadDemoSteps({ db: testDb.db, logger }, steps)).toEqual([]);
    const events = await testDb.db
      .selectFrom('events')
      .select(['type'])
      .where('type', 'in', ['ParentContractCreated', 'DeliveryContractCreated'])
      .execute();
    const types = (events as { type: string }[]).map((e) => e.type);
    expect(types.filter((t) => t === 'ParentContractCreated')).toHaveLength(1);
    expect(types.filter((t) => t === 'DeliveryContractCreated')).toHaveLength(DEMO_BATCH.growers);
  });
});
