import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp, checkProjector } from '@filiere/projections';
import { appendTestEvents, type NewTestEvent } from '@filiere/projections/testing';
import type { Database } from '../../../database.js';
import { product } from '../../../modules.js';
import * as rollupMigration from '../migrations/20261128_0100_dashboard_debt_rollup.js';
import * as everyoneMigration from '../migrations/20261130_0100_dashboard_everyone.js';
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

  it("keeps EVERYONE's rows (owner '') equal to the sum of every aggregator's, and each creditor's debts per opening day; a rebuild and the migration's backfill give the same rows", async () => {
    const db = testDb.db;
    const [g1, g2, a1, a2, cluster] = [1, 2, 3, 4, 5].map(() => randomUUID()) as [
      string,
      string,
      string,
      string,
      string,
    ];
    const settled = (contractId: string, payable: number, net: number): NewTestEvent => ({
      streamId: `contract-${contractId}`,
      type: 'DeliveryContractSettled',
      data: {
        contractId,
        deliveredKg: 900,
        deliveredAmount: payable,
        payableAmount: payable,
        shortfall: 0,
        capturedFromHold: payable,
        releasedFromHold: 100_000 - payable,
        extraFromAvailable: 0,
        recoveries: [],
        growerNet: net,
        settledBy: a1,
        settledAt: '2026-04-02T10:00:00.000Z',
      },
    });
    await appendTestEvents(db, [
      grower(g1, cluster),
      grower(g2, cluster),
      contract('e1', a1, g1),
      contract('e2', a2, g2),
      contract('e3', a2, g1),
      debt('o1', 'AVANCE_SUR_INTRANT', a1, g1, 20_000, '2026-03-01T09:00:00.000Z'),
      debt('o2', 'AVANCE_SUR_INTRANT', a2, g2, 30_000, '2026-03-01T09:00:00.000Z'),
    ]);
    await catchUp(db, dashboardProjector, { decode });
    await appendTestEvents(db, [
      {
        streamId: 'contract-e2',
        type: 'DeliveryContractConfirmed',
        data: { contractId: 'e2', confirmedBy: g2, confirmedAt: '2026-03-11T10:00:00.000Z' },
      },
      settled('e1', 90_000, 70_000),
      settled('e3', 90_000, 90_000),
      recovered('o1', 20_000, '2026-04-02T10:00:00.000Z'),
      recovered('o2', 5_000, '2026-04-02T10:00:00.000Z'),
    ]);
    await catchUp(db, dashboardProjector, { decode });

    const everyone = async () => ({
      daily: (
        await db
          .selectFrom('dashboard_daily')
          .selectAll()
          .where('owner_id', '=', '')
          .orderBy(['family', 'day', 'status'])
          .execute()
      ).map((r) => `${r.family} ${r.day} ${r.status} ${r.contracts} ${r.amount} ${r.delivered_kg}`),
      purchases: (
        await db
          .selectFrom('dashboard_purchases')
          .selectAll()
          .where('owner_id', '=', '')
          .orderBy('day')
          .execute()
      ).map((r) => `${r.side} ${r.day} ${r.contracts} ${r.paid} ${r.grower_net}`),
      opened: (await db.selectFrom('dashboard_debt_opened').selectAll().execute())
        .map(
          (r) =>
            `${r.creditor_user_id || 'EVERYONE'} ${r.kind} ${r.opened_day} ${r.debts} ${r.principal} ${r.recovered}`,
        )
        .sort(),
    });
    const projected = await everyone();
    expect(projected.daily).toEqual([
      'DELIVERY 2026-03-10 COMPLETED 2 200000 1800',
      'DELIVERY 2026-03-10 CONFIRMED 1 100000 0',
      // The previous test's three contracts (same day) are still pending.
      'DELIVERY 2026-03-10 PENDING 3 300000 0',
    ]);
    // Each of EVERYONE's rows is the sum of the aggregators' rows at its key.
    const summed = await db
      .selectFrom('dashboard_daily')
      .select(['family', 'day', 'status', (eb) => eb.fn.sum<string>('contracts').as('contracts')])
      .where('owner_id', '<>', '')
      .where('family', 'in', ['DELIVERY', 'CARRIAGE'])
      .groupBy(['family', 'day', 'status'])
      .orderBy(['family', 'day', 'status'])
      .execute();
    expect(summed.map((r) => `${r.family} ${r.day} ${r.status} ${Number(r.contracts)}`)).toEqual(
      projected.daily.map((r) => r.split(' ').slice(0, 4).join(' ')),
    );
    expect(projected.purchases).toEqual(['AGGREGATOR 2026-04-02 2 180000 160000']);
    // This test's advances (the previous test's debts are on other days or kinds).
    expect(projected.opened.filter((r) => r.includes(' AVANCE_SUR_INTRANT 2026-03-01 '))).toEqual(
      [
        `${a1} AVANCE_SUR_INTRANT 2026-03-01 1 20000 20000`,
        `${a2} AVANCE_SUR_INTRANT 2026-03-01 1 30000 5000`,
        'EVERYONE AVANCE_SUR_INTRANT 2026-03-01 2 50000 25000',
      ].sort(),
    );

    for (const batchSize of [10_000, 1]) {
      const check = await checkProjector(db, dashboardProjector, { decode, batchSize });
      expect(check.differences, `batchSize ${batchSize}`).toEqual([]);
    }
    await everyoneMigration.down(db);
    await everyoneMigration.up(db);
    expect(await everyone()).toEqual(projected);
  });
});
