import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { RecordedEvent } from '@filiere/event-store';
import {
  applyEvents,
  createShadowTables,
  dropSchema,
  type PushMessage,
} from '@filiere/projections';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../../../database.js';
import { dashboardProjector } from './projector.js';

/**
 * Every event type the dashboard follows, for several aggregators, growers (two clusters, a
 * cooperative that changes), creditors and days, in ONE batch: its rows in all nine tables are
 * pinned below, and the same events applied one per batch and three per batch (as replays cut
 * them) give exactly these rows. The writes are one statement per table of one array per
 * column (projections/src/pg-arrays.ts): a column written from the wrong array, a row lost or doubled
 * in a batch, changes a pinned row.
 */
describe('reporting-dashboard projector: one batch of every event type (real PostgreSQL)', () => {
  const testDb = useTestDatabase<Database>();
  const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const id = {
    A1: uuid(1),
    A2: uuid(2),
    S1: uuid(3),
    G1: uuid(11),
    G2: uuid(12),
    G3: uuid(13),
    U1: uuid(21),
    U2: uuid(22),
    U3: uuid(23),
    CA: uuid(31),
    CB: uuid(32),
    CX: uuid(33),
    K1: uuid(41),
    K2: uuid(42),
    K3: uuid(43),
  };
  const { A1, A2, S1, G1, G2, G3, U1, U2, U3, CA, CB, K1, K2 } = id;
  let position = 0;
  const start = new Date('2026-03-01T08:00:00.000Z').getTime();
  const event = (type: string, data: Record<string, unknown>): RecordedEvent => {
    position += 1;
    return {
      position,
      streamId: `s-${position}`,
      version: 1,
      type,
      schemaVersion: 1,
      data,
      metadata: {},
      recordedAt: new Date(start + position * 60_000),
    };
  };
  const grower = (growerId: string, userId: string, clusterId: string, coop: string | null) =>
    event('GrowerRegistered', { growerId, userId, clusterId, cooperativeId: coop, plots: [] });
  const delivery = (contractId: string, aggregatorUserId: string, growerId: string, at: string) =>
    event('DeliveryContractCreated', {
      contractId,
      aggregatorUserId,
      growerId,
      quantityKg: 2_000,
      amount: 150_000,
      createdAt: at,
    });
  const carriage = (contractId: string, aggregatorUserId: string, amount: number, at: string) =>
    event('CarriageContractCreated', { contractId, aggregatorUserId, amount, createdAt: at });
  const settled = (
    contractId: string,
    deliveredKg: number,
    paid: number,
    net: number,
    at: string,
  ) =>
    event('DeliveryContractSettled', {
      contractId,
      deliveredKg,
      payableAmount: paid,
      growerNet: net,
      settledAt: at,
    });
  const debt = (
    debtId: string,
    kind: string,
    creditor: string,
    debtor: string,
    principal: number,
    at: string,
  ) =>
    event('DebtOpened', {
      debtId,
      kind,
      creditorUserId: creditor,
      debtorGrowerId: debtor,
      principal,
      openedAt: at,
    });
  const recovered = (debtId: string, amount: number, at: string) =>
    event('DebtRecovered', { debtId, contractId: 'c1', amount, recoveredAt: at });

  const events = [
    grower(G1, U1, CA, null),
    grower(G2, U2, CB, K1),
    grower(G3, U3, CA, K1),
    // G3's debt to A2 comes before their first contract: the link brings its history.
    debt('d3', 'AVANCE_SUR_ANANAS', A2, G3, 30_000, '2026-02-15T09:00:00.000Z'),
    event('GrowerChanged', { growerId: G2, changes: [{ field: 'cooperative_id', to: K2 }] }),
    event('GrowerChanged', { growerId: G1, changes: [{ field: 'phone', to: '+22990000000' }] }),
    debt('d1', 'AVANCE_SUR_INTRANT', A1, G1, 50_000, '2026-02-01T09:00:00.000Z'),
    debt('d2', 'FINANCEMENT_SOCIAL', S1, G2, 40_000, '2026-03-31T23:30:00.000Z'),
    delivery('c1', A1, G1, '2026-03-10T10:00:00.000Z'),
    // 23:30 UTC on 31 March is 1 April in Porto-Novo; a second-precision instant too.
    delivery('c2', A1, G2, '2026-03-31T23:30:00.000Z'),
    delivery('c3', A2, G1, '2026-03-10T10:00:00Z'),
    delivery('c4', A2, G3, '2026-04-02T10:00:00.000Z'),
    carriage('k1', A1, 25_000, '2026-03-10T11:00:00.000Z'),
    carriage('k2', A2, 35_000, '2026-03-11T11:00:00.000Z'),
    event('DeliveryContractConfirmed', { contractId: 'c1' }),
    event('DeliveryContractConfirmed', { contractId: 'c2' }),
    event('DeliveryContractConfirmed', { contractId: 'c4' }),
    event('DeliveryRecorded', { contractId: 'c1', deliveredKg: 1_800 }),
    event('DeliveryContractOutOfTime', { contractId: 'c2' }),
    event('DeliveryContractCanceled', { contractId: 'c3' }),
    event('CarriageContractPaid', { contractId: 'k1' }),
    event('CarriageContractCanceled', { contractId: 'k2' }),
    settled('c1', 1_800, 135_000, 115_000, '2026-03-31T23:45:00.000Z'),
    recovered('d1', 20_000, '2026-03-31T23:45:00.000Z'),
    recovered('d2', 10_000, '2026-04-03T08:00:00.000Z'),
    recovered('d3', 5_000, '2026-04-03T08:00:00.000Z'),
    // Events of rows the projection never saw change nothing.
    recovered('d404', 1_000, '2026-04-03T08:00:00.000Z'),
    event('DeliveryContractConfirmed', { contractId: 'c404' }),
  ];

  /**
   * Identity's users, whom the push reaches or not: an active super admin (yes), an inactive
   * and a deleted admin (no), the cluster managers of cluster A (G1's, G3's: yes), of cluster X
   * (A1's own cluster: yes) and of an untouched cluster (no), the cooperatives' users of K2
   * (G2's since its change: yes), K1 (G3's: yes) and K3 (no).
   */
  const seedIdentity = async () => {
    const db = testDb.db;
    await db
      .insertInto('clusters')
      .values([CA, CB, id.CX, uuid(34)].map((c, i) => ({ id: c, label: `cluster ${i}` })))
      .execute();
    await db
      .insertInto('organizations')
      .values(
        [K1, K2, id.K3].map((o, i) => ({
          id: o,
          denomination: `coop ${i}`,
          organization_type: 'COOPERATIVE',
        })),
      )
      .execute();
    const user = (n: number, role: number, extra: Record<string, unknown> = {}) => ({
      id: uuid(n),
      firstname: 'F',
      lastname: `L${n}`,
      email: `u${n}@test.bj`,
      username: `u${n}`,
      role_id: role,
      is_active: true,
      ...extra,
    });
    await db
      .insertInto('users')
      .values([
        user(1, 5, { cluster_id: id.CX }), // A1, aggregator of cluster X
        user(101, 1), // super admin
        user(102, 2, { is_active: false }),
        user(103, 2, { deleted_at: new Date() }),
        user(111, 11, { cluster_id: CA }),
        user(112, 11, { cluster_id: id.CX }),
        user(113, 11, { cluster_id: uuid(34) }),
        user(121, 10, { organization_id: K2 }),
        user(122, 10, { organization_id: K1 }),
        user(123, 10, { organization_id: id.K3 }),
      ])
      .execute();
  };

  const TABLES = dashboardProjector.tables;
  const show = (v: unknown) => (v === null ? 'NULL' : v === '' ? "''" : String(v));
  const rows = async (schema: string) => {
    const out: Record<string, string[]> = {};
    for (const table of TABLES) {
      const result = await sql<
        Record<string, unknown>
      >`select * from ${sql.id(schema, table)}`.execute(testDb.db);
      out[table] = result.rows.map((r) => Object.values(r).map(show).join(' ')).sort();
    }
    return out;
  };
  const applyIn = async (schema: string, size: number) => {
    const pushes: PushMessage[] = [];
    for (let i = 0; i < events.length; i += size) {
      await testDb.db
        .transaction()
        .execute((trx) =>
          applyEvents<Database>(trx, dashboardProjector, events.slice(i, i + size), schema, pushes),
        );
    }
    return pushes;
  };

  it('writes these rows, in one batch or in batches of one or three events', async () => {
    const schemas = ['dash_all', 'dash_one', 'dash_three'];
    await seedIdentity();
    try {
      for (const schema of schemas) await createShadowTables(testDb.db, dashboardProjector, schema);
      const pushes = await applyIn('dash_all', events.length);
      await applyIn('dash_one', 1);
      await applyIn('dash_three', 3);
      const all = await rows('dash_all');
      expect(await rows('dash_one')).toEqual(all);
      expect(await rows('dash_three')).toEqual(all);
      expect(pushes).toEqual([
        {
          type: 'reporting.dashboard',
          userIds: [A1, A2, S1, U1, U2, U3, ...[101, 111, 112, 121, 122].map(uuid)].sort(),
        },
      ]);
      expect(all).toMatchInlineSnapshot(`
        {
          "dashboard_aggregator_growers": [
            "00000000-0000-4000-8000-000000000001 00000000-0000-4000-8000-000000000011",
            "00000000-0000-4000-8000-000000000001 00000000-0000-4000-8000-000000000012",
            "00000000-0000-4000-8000-000000000002 00000000-0000-4000-8000-000000000011",
            "00000000-0000-4000-8000-000000000002 00000000-0000-4000-8000-000000000013",
          ],
          "dashboard_contracts": [
            "c1 DELIVERY 00000000-0000-4000-8000-000000000001 00000000-0000-4000-8000-000000000011 2026-03-10 COMPLETED 2000 150000 1800",
            "c2 DELIVERY 00000000-0000-4000-8000-000000000001 00000000-0000-4000-8000-000000000012 2026-04-01 OUTTIME 2000 150000 0",
            "c3 DELIVERY 00000000-0000-4000-8000-000000000002 00000000-0000-4000-8000-000000000011 2026-03-10 CANCELED 2000 150000 0",
            "c4 DELIVERY 00000000-0000-4000-8000-000000000002 00000000-0000-4000-8000-000000000013 2026-04-02 CONFIRMED 2000 150000 0",
            "k1 CARRIAGE 00000000-0000-4000-8000-000000000001 NULL 2026-03-10 PAID 0 25000 0",
            "k2 CARRIAGE 00000000-0000-4000-8000-000000000002 NULL 2026-03-11 CANCELED 0 35000 0",
          ],
          "dashboard_daily": [
            "'' CARRIAGE 2026-03-10 CREATED 0 0 0 0",
            "'' CARRIAGE 2026-03-10 PAID 1 0 25000 0",
            "'' CARRIAGE 2026-03-11 CANCELED 1 0 35000 0",
            "'' CARRIAGE 2026-03-11 CREATED 0 0 0 0",
            "'' DELIVERY 2026-03-10 CANCELED 1 2000 150000 0",
            "'' DELIVERY 2026-03-10 COMPLETED 1 2000 150000 1800",
            "'' DELIVERY 2026-03-10 CONFIRMED 0 0 0 0",
            "'' DELIVERY 2026-03-10 DELIVERED 0 0 0 0",
            "'' DELIVERY 2026-03-10 PENDING 0 0 0 0",
            "'' DELIVERY 2026-04-01 CONFIRMED 0 0 0 0",
            "'' DELIVERY 2026-04-01 OUTTIME 1 2000 150000 0",
            "'' DELIVERY 2026-04-01 PENDING 0 0 0 0",
            "'' DELIVERY 2026-04-02 CONFIRMED 1 2000 150000 0",
            "'' DELIVERY 2026-04-02 PENDING 0 0 0 0",
            "00000000-0000-4000-8000-000000000001 CARRIAGE 2026-03-10 CREATED 0 0 0 0",
            "00000000-0000-4000-8000-000000000001 CARRIAGE 2026-03-10 PAID 1 0 25000 0",
            "00000000-0000-4000-8000-000000000001 DELIVERY 2026-03-10 COMPLETED 1 2000 150000 1800",
            "00000000-0000-4000-8000-000000000001 DELIVERY 2026-03-10 CONFIRMED 0 0 0 0",
            "00000000-0000-4000-8000-000000000001 DELIVERY 2026-03-10 DELIVERED 0 0 0 0",
            "00000000-0000-4000-8000-000000000001 DELIVERY 2026-03-10 PENDING 0 0 0 0",
            "00000000-0000-4000-8000-000000000001 DELIVERY 2026-04-01 CONFIRMED 0 0 0 0",
            "00000000-0000-4000-8000-000000000001 DELIVERY 2026-04-01 OUTTIME 1 2000 150000 0",
            "00000000-0000-4000-8000-000000000001 DELIVERY 2026-04-01 PENDING 0 0 0 0",
            "00000000-0000-4000-8000-000000000002 CARRIAGE 2026-03-11 CANCELED 1 0 35000 0",
            "00000000-0000-4000-8000-000000000002 CARRIAGE 2026-03-11 CREATED 0 0 0 0",
            "00000000-0000-4000-8000-000000000002 DELIVERY 2026-03-10 CANCELED 1 2000 150000 0",
            "00000000-0000-4000-8000-000000000002 DELIVERY 2026-03-10 PENDING 0 0 0 0",
            "00000000-0000-4000-8000-000000000002 DELIVERY 2026-04-02 CONFIRMED 1 2000 150000 0",
            "00000000-0000-4000-8000-000000000002 DELIVERY 2026-04-02 PENDING 0 0 0 0",
            "00000000-0000-4000-8000-000000000011 GROWER 2026-03-10 CANCELED 1 2000 150000 0",
            "00000000-0000-4000-8000-000000000011 GROWER 2026-03-10 COMPLETED 1 2000 150000 1800",
            "00000000-0000-4000-8000-000000000011 GROWER 2026-03-10 CONFIRMED 0 0 0 0",
            "00000000-0000-4000-8000-000000000011 GROWER 2026-03-10 DELIVERED 0 0 0 0",
            "00000000-0000-4000-8000-000000000011 GROWER 2026-03-10 PENDING 0 0 0 0",
            "00000000-0000-4000-8000-000000000012 GROWER 2026-04-01 CONFIRMED 0 0 0 0",
            "00000000-0000-4000-8000-000000000012 GROWER 2026-04-01 OUTTIME 1 2000 150000 0",
            "00000000-0000-4000-8000-000000000012 GROWER 2026-04-01 PENDING 0 0 0 0",
            "00000000-0000-4000-8000-000000000013 GROWER 2026-04-02 CONFIRMED 1 2000 150000 0",
            "00000000-0000-4000-8000-000000000013 GROWER 2026-04-02 PENDING 0 0 0 0",
          ],
          "dashboard_debt_daily": [
            "00000000-0000-4000-8000-000000000011 00000000-0000-4000-8000-000000000001 AVANCE_SUR_INTRANT 2026-02-01 50000 1 0",
            "00000000-0000-4000-8000-000000000011 00000000-0000-4000-8000-000000000001 AVANCE_SUR_INTRANT 2026-04-01 0 0 20000",
            "00000000-0000-4000-8000-000000000012 00000000-0000-4000-8000-000000000003 FINANCEMENT_SOCIAL 2026-04-01 40000 1 0",
            "00000000-0000-4000-8000-000000000012 00000000-0000-4000-8000-000000000003 FINANCEMENT_SOCIAL 2026-04-03 0 0 10000",
            "00000000-0000-4000-8000-000000000013 00000000-0000-4000-8000-000000000002 AVANCE_SUR_ANANAS 2026-02-15 30000 1 0",
            "00000000-0000-4000-8000-000000000013 00000000-0000-4000-8000-000000000002 AVANCE_SUR_ANANAS 2026-04-03 0 0 5000",
          ],
          "dashboard_debt_opened": [
            "'' AVANCE_SUR_ANANAS 2026-02-15 1 30000 5000",
            "'' AVANCE_SUR_INTRANT 2026-02-01 1 50000 20000",
            "'' FINANCEMENT_SOCIAL 2026-04-01 1 40000 10000",
            "00000000-0000-4000-8000-000000000001 AVANCE_SUR_INTRANT 2026-02-01 1 50000 20000",
            "00000000-0000-4000-8000-000000000002 AVANCE_SUR_ANANAS 2026-02-15 1 30000 5000",
            "00000000-0000-4000-8000-000000000003 FINANCEMENT_SOCIAL 2026-04-01 1 40000 10000",
          ],
          "dashboard_debt_rollup": [
            "AGGREGATOR 00000000-0000-4000-8000-000000000001 2026-02-01 AVANCE_SUR_INTRANT 50000 0",
            "AGGREGATOR 00000000-0000-4000-8000-000000000001 2026-04-01 AVANCE_SUR_INTRANT 0 20000",
            "AGGREGATOR 00000000-0000-4000-8000-000000000001 2026-04-01 FINANCEMENT_SOCIAL 40000 0",
            "AGGREGATOR 00000000-0000-4000-8000-000000000001 2026-04-03 FINANCEMENT_SOCIAL 0 10000",
            "AGGREGATOR 00000000-0000-4000-8000-000000000002 2026-02-01 AVANCE_SUR_INTRANT 50000 0",
            "AGGREGATOR 00000000-0000-4000-8000-000000000002 2026-02-15 AVANCE_SUR_ANANAS 30000 0",
            "AGGREGATOR 00000000-0000-4000-8000-000000000002 2026-04-01 AVANCE_SUR_INTRANT 0 20000",
            "AGGREGATOR 00000000-0000-4000-8000-000000000002 2026-04-03 AVANCE_SUR_ANANAS 0 5000",
            "ALL '' 2026-02-01 AVANCE_SUR_INTRANT 50000 0",
            "ALL '' 2026-02-15 AVANCE_SUR_ANANAS 30000 0",
            "ALL '' 2026-04-01 AVANCE_SUR_INTRANT 0 20000",
            "ALL '' 2026-04-01 FINANCEMENT_SOCIAL 40000 0",
            "ALL '' 2026-04-03 AVANCE_SUR_ANANAS 0 5000",
            "ALL '' 2026-04-03 FINANCEMENT_SOCIAL 0 10000",
            "CLUSTER 00000000-0000-4000-8000-000000000031 2026-02-01 AVANCE_SUR_INTRANT 50000 0",
            "CLUSTER 00000000-0000-4000-8000-000000000031 2026-02-15 AVANCE_SUR_ANANAS 30000 0",
            "CLUSTER 00000000-0000-4000-8000-000000000031 2026-04-01 AVANCE_SUR_INTRANT 0 20000",
            "CLUSTER 00000000-0000-4000-8000-000000000031 2026-04-03 AVANCE_SUR_ANANAS 0 5000",
            "CLUSTER 00000000-0000-4000-8000-000000000032 2026-04-01 FINANCEMENT_SOCIAL 40000 0",
            "CLUSTER 00000000-0000-4000-8000-000000000032 2026-04-03 FINANCEMENT_SOCIAL 0 10000",
          ],
          "dashboard_debts": [
            "d1 AVANCE_SUR_INTRANT 00000000-0000-4000-8000-000000000001 00000000-0000-4000-8000-000000000011 50000 20000 2026-02-01",
            "d2 FINANCEMENT_SOCIAL 00000000-0000-4000-8000-000000000003 00000000-0000-4000-8000-000000000012 40000 10000 2026-04-01",
            "d3 AVANCE_SUR_ANANAS 00000000-0000-4000-8000-000000000002 00000000-0000-4000-8000-000000000013 30000 5000 2026-02-15",
          ],
          "dashboard_growers": [
            "00000000-0000-4000-8000-000000000011 00000000-0000-4000-8000-000000000021 00000000-0000-4000-8000-000000000031 NULL",
            "00000000-0000-4000-8000-000000000012 00000000-0000-4000-8000-000000000022 00000000-0000-4000-8000-000000000032 00000000-0000-4000-8000-000000000042",
            "00000000-0000-4000-8000-000000000013 00000000-0000-4000-8000-000000000023 00000000-0000-4000-8000-000000000031 00000000-0000-4000-8000-000000000041",
          ],
          "dashboard_purchases": [
            "AGGREGATOR '' 2026-04-01 1 1800 135000 115000",
            "AGGREGATOR 00000000-0000-4000-8000-000000000001 2026-04-01 1 1800 135000 115000",
            "GROWER 00000000-0000-4000-8000-000000000011 2026-04-01 1 1800 135000 115000",
          ],
        }
      `);
    } finally {
      for (const schema of schemas) await dropSchema(testDb.db, schema);
    }
  });
});
