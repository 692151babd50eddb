import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp, checkProjector } from '@filiere/projections';
import { appendTestEvents, type NewTestEvent } from '@filiere/projections/testing';
import type { Database } from '../../../database.js';
import { product } from '../../../modules.js';
import * as rollupMigration from '../migrations/20261128_0100_dashboard_debt_rollup.js';
import { dashboardProjector } from './projector.js';

const decode = catalogueDecoder(product.catalogue);

const grower = (growerId: string, clusterId: string): NewTestEvent => ({
  streamId: `grower-${growerId}`,
  type: 'GrowerRegistered',
  data: {
    growerId,
    userId: randomUUID(),
    actorId: randomUUID(),
    reference: `PRD-${growerId.slice(0, 6)}`,
    clusterId,
    cooperativeId: null,
    villageCode: 'A098-001',
    plotIds: [],
  },
});
const contract = (
  contractId: string,
  aggregatorUserId: string,
  growerId: string,
): NewTestEvent => ({
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
});
const debt = (
  debtId: string,
  kind: string,
  creditorUserId: string,
  debtorGrowerId: string,
  principal: number,
  openedAt: string,
): NewTestEvent => ({
  streamId: `debt-${debtId}`,
  type: 'DebtOpened',
  data: {
    debtId,
    kind,
    creditorUserId,
    debtorGrowerId,
    principal,
    sourceContractId: null,
    openedAt,
  },
});
const recovered = (debtId: string, amount: number, recoveredAt: string): NewTestEvent => ({
  streamId: `debt-${debtId}`,
  type: 'DebtRecovered',
  data: { debtId, contractId: 'c1', amount, recoveredAt },
});

describe('reporting-dashboard: dashboard_debt_rollup (debts per scope, day and kind, no grower)', () => {
  const testDb = useTestDatabase<Database>();

  it('sums the growers of ALL, of each cluster and of each aggregator (history included when a link comes later), and rebuilds identically in any batches', async () => {
    const db = testDb.db;
    const [g1, g2, g3, a1, a2, sfd, ca, cb] = [1, 2, 3, 4, 5, 6, 7, 8].map(() => randomUUID()) as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    // Batch 1: a debt opened before its grower's first contract with a1 (the link's history).
    await appendTestEvents(db, [
      grower(g1, ca),
      grower(g2, cb),
      grower(g3, ca),
      debt('d1', 'AVANCE_SUR_INTRANT', a1, g1, 50_000, '2026-02-01T09:00:00.000Z'),
      debt('d2', 'AVANCE_SUR_ANANAS', a2, g2, 100_000, '2026-03-02T09:00:00.000Z'),
      contract('c1', a1, g1),
    ]);
    await catchUp(db, dashboardProjector, { decode });
    // Batch 2: a recovery, and a2 contracts with g1 in the same batch (g1's whole history, this
    // recovery included, goes to a2 once); g3's debt reaches ALL and cluster-a only.
    await appendTestEvents(db, [
      recovered('d1', 30_000, '2026-03-16T10:00:00.000Z'),
      contract('c2', a2, g1),
      contract('c3', a2, g2),
      debt('d3', 'FINANCEMENT_SOCIAL', sfd, g3, 40_000, '2026-03-01T09:00:00.000Z'),
    ]);
    await catchUp(db, dashboardProjector, { decode });

    const rows = async () =>
      (await db.selectFrom('dashboard_debt_rollup').selectAll().execute())
        .map((r) => `${r.scope} ${r.scope_id} ${r.day} ${r.kind} ${r.opened} ${r.recovered}`)
        .sort();
    const intrant = [
      '2026-02-01 AVANCE_SUR_INTRANT 50000 0',
      '2026-03-16 AVANCE_SUR_INTRANT 0 30000',
    ];
    const expected = [
      ...intrant.map((r) => `AGGREGATOR ${a1} ${r}`),
      `AGGREGATOR ${a2} ${intrant[0]}`,
      `AGGREGATOR ${a2} 2026-03-02 AVANCE_SUR_ANANAS 100000 0`,
      `AGGREGATOR ${a2} ${intrant[1]}`,
      `ALL  ${intrant[0]}`,
      'ALL  2026-03-01 FINANCEMENT_SOCIAL 40000 0',
      'ALL  2026-03-02 AVANCE_SUR_ANANAS 100000 0',
      `ALL  ${intrant[1]}`,
      `CLUSTER ${ca} ${intrant[0]}`,
      `CLUSTER ${ca} 2026-03-01 FINANCEMENT_SOCIAL 40000 0`,
      `CLUSTER ${ca} ${intrant[1]}`,
      `CLUSTER ${cb} 2026-03-02 AVANCE_SUR_ANANAS 100000 0`,
    ].sort();
    const projected = await rows();
    expect(projected).toEqual(expected);

    // A rebuild in one batch and in batches of one event gives the same rows.
    for (const batchSize of [10_000, 1]) {
      const check = await checkProjector(db, dashboardProjector, { decode, batchSize });
      expect(check.differences, `batchSize ${batchSize}`).toEqual([]);
    }
    // The migration's backfill (from the grower-level tables) gives the same rows too.
    await rollupMigration.down(db);
    await rollupMigration.up(db);
    expect(await rows()).toEqual(projected);
  });
});
