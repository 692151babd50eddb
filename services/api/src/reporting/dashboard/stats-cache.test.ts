import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { narrowDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import { appendTestEvents, type NewTestEvent } from '@filiere/projections/testing';
import type { Database } from '../../database.js';
import { product } from '../../modules.js';
import { DashboardQueries, type DashboardQueryTables, type StatsScope } from './queries.js';
import { dashboardProjector } from './read-model/projector.js';

const decode = catalogueDecoder(product.catalogue);

const created = (aggregatorUserId: string, growerId: string): NewTestEvent => {
  const contractId = randomUUID();
  return {
    streamId: `contract-${contractId}`,
    type: 'DeliveryContractCreated',
    data: {
      contractId,
      reference: `CTR-${contractId}`,
      parentId: null,
      aggregatorUserId,
      growerId,
      growerUserId: randomUUID(),
      plotId: randomUUID(),
      productType: 'CAYENNE_LISSE',
      quantityKg: 1_000,
      amount: 100_000,
      deliveryDate: '2026-06-30',
      holdId: `hold-${contractId}`,
      createdBy: aggregatorUserId,
      createdAt: '2026-03-10T10:00:00.000Z',
    },
  };
};

describe('contracts/stats cache: keyed by the reporting-dashboard checkpoint', () => {
  const testDb = useTestDatabase<Database>();

  it('keeps an answer while the projection stands still, and answers anew as soon as it moves (never staler than the projection)', async () => {
    const db = testDb.db;
    const queries = new DashboardQueries(narrowDb<DashboardQueryTables>()(db));
    const aggregator = randomUUID();
    const grower = randomUUID();
    const range = { from: '2026-01-01', to: '2026-12-31' };
    const scopes: StatsScope[] = [
      { kind: 'ALL' },
      { kind: 'AGGREGATOR', aggregatorId: aggregator },
    ];
    const project = () => catchUp(db, dashboardProjector, { decode });

    await appendTestEvents(db, [created(aggregator, grower)]);
    await project();
    for (const scope of scopes) {
      const first = await queries.cachedStats(scope, range);
      expect(first.delivery.totalContracts).toBe(1);
      expect(first).toEqual(await queries.stats(scope, range));
      // Unmoved checkpoint: the kept answer itself.
      expect(await queries.cachedStats(scope, range)).toBe(first);
    }

    // An event appended but not yet projected: the projection, hence the answer, is unchanged.
    await appendTestEvents(db, [created(aggregator, grower)]);
    for (const scope of scopes) {
      expect((await queries.cachedStats(scope, range)).delivery.totalContracts).toBe(1);
    }
    // Projected: the checkpoint moved, the next answer has it.
    await project();
    for (const scope of scopes) {
      const next = await queries.cachedStats(scope, range);
      expect(next.delivery.totalContracts).toBe(2);
      expect(next).toEqual(await queries.stats(scope, range));
    }
    // Another range is another answer.
    const march = await queries.cachedStats(
      { kind: 'ALL' },
      { from: '2026-04-01', to: '2026-12-31' },
    );
    expect(march.delivery.totalContracts).toBe(0);
  });
});
