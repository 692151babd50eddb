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
import type { Database } from '../../database.js';
import { contractsProjector } from './projector.js';

/**
 * Every event type of the contracts projector in ONE batch, in the orders a batch can hold
 * them: a contract created, confirmed, delivered and settled in the batch; contracts of an
 * earlier batch moved to every status; a settlement recovering a debt opened in the same batch
 * and one opened before; a debt recovered twice; events of a contract and a debt the
 * projection never saw (nothing happens) — and one event of a contract before the event that
 * creates it (the per-event update found no row). Its rows are pinned as the one-statement-
 * per-event projector wrote them, and the same events one and three per batch give them too.
 */
describe('contracts projector: one batch of every event type (real PostgreSQL)', () => {
  const testDb = useTestDatabase<Database>();
  const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  let position = 0;
  const start = new Date('2026-11-20T08:00:00.000Z').getTime();
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
  const created = (c: string, n: number, parentId: string | null = null) =>
    event('DeliveryContractCreated', {
      contractId: c,
      reference: `LIV-${c}`,
      parentId,
      aggregatorUserId: uuid(1 + (n % 2)),
      growerId: uuid(100 + n),
      growerUserId: uuid(200 + n),
      plotId: uuid(300 + n),
      productType: n % 2 ? 'CAYENNE_LISSE' : null,
      quantityKg: 1_000 * n,
      amount: 50_000 * n,
      deliveryDate: '2027-04-30',
      holdId: `contract-${c}`,
      createdBy: uuid(1),
      createdAt: new Date(start).toISOString(),
    });
  const confirmed = (c: string) => event('DeliveryContractConfirmed', { contractId: c });
  const delivered = (c: string, kg: number) =>
    event('DeliveryRecorded', { contractId: c, deliveredKg: kg, deliveredOn: '2026-11-25' });
  const settled = (c: string, payable: number, recoveries: [string, number][]) =>
    event('DeliveryContractSettled', {
      contractId: c,
      deliveredKg: 1_000,
      deliveredAmount: payable,
      payableAmount: payable,
      shortfall: 0,
      capturedFromHold: payable,
      releasedFromHold: 0,
      extraFromAvailable: 0,
      recoveries: recoveries.map(([debtId, amount]) => ({
        debtId,
        kind: 'AVANCE_SUR_INTRANT',
        creditorUserId: uuid(1),
        amount,
        to: 'AGGREGATOR',
      })),
      growerNet: payable - recoveries.reduce((s, [, a]) => s + a, 0),
      payoutId: null,
      settledBy: uuid(1),
      settledAt: new Date(start).toISOString(),
    });
  const opened = (d: string, creditor: number, principal: number) =>
    event('DebtOpened', {
      debtId: d,
      kind: creditor === 3 ? 'FINANCEMENT_SOCIAL' : 'AVANCE_SUR_INTRANT',
      creditorUserId: uuid(creditor),
      debtorGrowerId: uuid(101),
      principal,
      sourceContractId: null,
      openedAt: '2026-11-01T09:00:00.000Z',
    });
  const recovered = (d: string, c: string, amount: number) =>
    event('DebtRecovered', {
      debtId: d,
      contractId: c,
      amount,
      recoveredAt: '2026-11-26T10:00:00Z',
    });

  /** An earlier batch: contracts b1–b5 and a debt dx. */
  const before = [
    created('b1', 1),
    created('b2', 2),
    created('b3', 3),
    created('b4', 4),
    created('b5', 5),
    confirmed('b2'),
    confirmed('b3'),
    delivered('b3', 2_900),
    opened('dx', 3, 60_000),
  ];
  const batch = [
    confirmed('b1'),
    delivered('b2', 1_900),
    event('DeliveryContractOutOfTime', { contractId: 'b4' }),
    event('DeliveryContractCanceled', { contractId: 'b5' }),
    // n1 is confirmed before the event that creates it: that confirmation changed nothing.
    confirmed('n1'),
    created('n1', 6, uuid(900)),
    created('n2', 7),
    confirmed('n2'),
    delivered('n2', 7_000),
    opened('dn', 1, 20_000),
    settled('n2', 350_000, [
      ['dn', 15_000],
      ['dx', 10_000],
    ]),
    recovered('dn', 'n2', 15_000),
    recovered('dx', 'n2', 10_000),
    settled('b3', 140_000, [['dx', 20_000]]),
    recovered('dx', 'b3', 20_000),
    // Never seen by the projection: nothing to change.
    confirmed('ghost'),
    recovered('d-ghost', 'b3', 1_000),
  ];

  /** Each row as PostgreSQL writes it (dates and instants in UTC, whatever the test's zone). */
  const rows = (schema: string) =>
    testDb.db.transaction().execute(async (trx) => {
      await sql`set local timezone to 'UTC'`.execute(trx);
      const out: Record<string, string[]> = {};
      for (const table of contractsProjector.tables) {
        const result = await sql<{
          row: string;
        }>`select t::text as row from ${sql.id(schema, table)} t`.execute(trx);
        out[table] = result.rows.map((r) => r.row).sort();
      }
      return out;
    });
  const applyIn = async (schema: string, size: number) => {
    const pushes: PushMessage[] = [];
    await testDb.db
      .transaction()
      .execute((trx) => applyEvents<Database>(trx, contractsProjector, before, schema, []));
    for (let i = 0; i < batch.length; i += size) {
      await testDb.db
        .transaction()
        .execute((trx) =>
          applyEvents<Database>(trx, contractsProjector, batch.slice(i, i + size), schema, pushes),
        );
    }
    return pushes;
  };
  /** Pushes as a set: their order within a batch says nothing. */
  const sorted = (pushes: PushMessage[]) =>
    pushes.map((p) => JSON.stringify({ ...p, userIds: [...p.userIds].sort() })).sort();

  it('writes these rows and pushes, in one batch or in batches of one or three events', async () => {
    const schemas = ['contracts_all', 'contracts_one', 'contracts_three'];
    try {
      for (const schema of schemas) {
        await createShadowTables(testDb.db, contractsProjector, schema);
      }
      const pushes = await applyIn('contracts_all', batch.length);
      await applyIn('contracts_one', 1);
      await applyIn('contracts_three', 3);
      const all = await rows('contracts_all');
      expect(await rows('contracts_one')).toEqual(all);
      expect(await rows('contracts_three')).toEqual(all);
      expect(sorted(pushes)).toMatchInlineSnapshot(`
        [
          "{"type":"contracts.updated","userIds":["00000000-0000-4000-8000-000000000001","00000000-0000-4000-8000-000000000003"]}",
          "{"type":"contracts.updated","userIds":["00000000-0000-4000-8000-000000000001","00000000-0000-4000-8000-000000000202"],"data":{"contractId":"b2","status":"DELIVERED"}}",
          "{"type":"contracts.updated","userIds":["00000000-0000-4000-8000-000000000001","00000000-0000-4000-8000-000000000204"],"data":{"contractId":"b4","status":"OUTTIME"}}",
          "{"type":"contracts.updated","userIds":["00000000-0000-4000-8000-000000000001","00000000-0000-4000-8000-000000000206"],"data":{"contractId":"n1","status":"PENDING"}}",
          "{"type":"contracts.updated","userIds":["00000000-0000-4000-8000-000000000002","00000000-0000-4000-8000-000000000201"],"data":{"contractId":"b1","status":"CONFIRMED"}}",
          "{"type":"contracts.updated","userIds":["00000000-0000-4000-8000-000000000002","00000000-0000-4000-8000-000000000203"],"data":{"contractId":"b3","status":"COMPLETED"}}",
          "{"type":"contracts.updated","userIds":["00000000-0000-4000-8000-000000000002","00000000-0000-4000-8000-000000000205"],"data":{"contractId":"b5","status":"CANCELED"}}",
          "{"type":"contracts.updated","userIds":["00000000-0000-4000-8000-000000000002","00000000-0000-4000-8000-000000000207"],"data":{"contractId":"n2","status":"COMPLETED"}}",
        ]
      `);
      expect(all).toMatchInlineSnapshot(`
        {
          "delivery_contracts": [
            "(b1,LIV-b1,,00000000-0000-4000-8000-000000000002,00000000-0000-4000-8000-000000000101,00000000-0000-4000-8000-000000000201,00000000-0000-4000-8000-000000000301,CAYENNE_LISSE,1000,50000,2027-04-30,CONFIRMED,,,,,,"2026-11-20 08:01:00+00","2026-11-20 08:10:00+00")",
            "(b2,LIV-b2,,00000000-0000-4000-8000-000000000001,00000000-0000-4000-8000-000000000102,00000000-0000-4000-8000-000000000202,00000000-0000-4000-8000-000000000302,,2000,100000,2027-04-30,DELIVERED,1900,2026-11-25,,,,"2026-11-20 08:02:00+00","2026-11-20 08:11:00+00")",
            "(b3,LIV-b3,,00000000-0000-4000-8000-000000000002,00000000-0000-4000-8000-000000000103,00000000-0000-4000-8000-000000000203,00000000-0000-4000-8000-000000000303,CAYENNE_LISSE,3000,150000,2027-04-30,COMPLETED,2900,2026-11-25,140000,20000,120000,"2026-11-20 08:03:00+00","2026-11-20 08:23:00+00")",
            "(b4,LIV-b4,,00000000-0000-4000-8000-000000000001,00000000-0000-4000-8000-000000000104,00000000-0000-4000-8000-000000000204,00000000-0000-4000-8000-000000000304,,4000,200000,2027-04-30,OUTTIME,,,,,,"2026-11-20 08:04:00+00","2026-11-20 08:12:00+00")",
            "(b5,LIV-b5,,00000000-0000-4000-8000-000000000002,00000000-0000-4000-8000-000000000105,00000000-0000-4000-8000-000000000205,00000000-0000-4000-8000-000000000305,CAYENNE_LISSE,5000,250000,2027-04-30,CANCELED,,,,,,"2026-11-20 08:05:00+00","2026-11-20 08:13:00+00")",
            "(n1,LIV-n1,00000000-0000-4000-8000-000000000900,00000000-0000-4000-8000-000000000001,00000000-0000-4000-8000-000000000106,00000000-0000-4000-8000-000000000206,00000000-0000-4000-8000-000000000306,,6000,300000,2027-04-30,PENDING,,,,,,"2026-11-20 08:15:00+00","2026-11-20 08:15:00+00")",
            "(n2,LIV-n2,,00000000-0000-4000-8000-000000000002,00000000-0000-4000-8000-000000000107,00000000-0000-4000-8000-000000000207,00000000-0000-4000-8000-000000000307,CAYENNE_LISSE,7000,350000,2027-04-30,COMPLETED,7000,2026-11-25,350000,25000,325000,"2026-11-20 08:16:00+00","2026-11-20 08:20:00+00")",
          ],
          "grower_debts": [
            "(dn,AVANCE_SUR_INTRANT,00000000-0000-4000-8000-000000000001,00000000-0000-4000-8000-000000000101,20000,15000,"2026-11-01 09:00:00+00")",
            "(dx,FINANCEMENT_SOCIAL,00000000-0000-4000-8000-000000000003,00000000-0000-4000-8000-000000000101,60000,30000,"2026-11-01 09:00:00+00")",
          ],
        }
      `);
    } finally {
      for (const schema of schemas) await dropSchema(testDb.db, schema);
    }
  });

  it('after more than 100 changed contracts, one push per user without data', async () => {
    const many = Array.from({ length: 101 }, (_, i) => created(`m${i}`, i));
    const pushes: PushMessage[] = [];
    await testDb.db
      .transaction()
      .execute((trx) => applyEvents<Database>(trx, contractsProjector, many, 'public', pushes));
    expect(pushes).toHaveLength(1);
    expect(pushes[0]!.data).toBeUndefined();
    expect([...pushes[0]!.userIds].sort()).toEqual(
      [uuid(1), uuid(2), ...Array.from({ length: 101 }, (_, i) => uuid(200 + i))].sort(),
    );
  });
});
