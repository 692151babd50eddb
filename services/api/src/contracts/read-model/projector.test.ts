import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@filiere/event-store';
import {
  applyEvents,
  createShadowTables,
  dropSchema,
  type PushMessage,
} from '@filiere/projections';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../../database.js';
import { sql } from 'kysely';
import { seedCluster, seedOrganization, seedUser } from '../../identity/test-support.js';
import { contractsProjector } from './projector.js';

/**
 * The projector writes a run's settlements and debt recoveries one statement per run of
 * consecutive events: the rows must be those one update per event gave, in the events' order.
 */
describe('contracts projector (real PostgreSQL)', () => {
  const testDb = useTestDatabase<Database>();
  let position = 0;
  const at = new Date('2026-11-23T05:00:00.000Z');
  const recorded = (type: string, data: Record<string, unknown>): RecordedEvent => ({
    position: ++position,
    streamId: `x-${position}`,
    version: 1,
    type,
    schemaVersion: 1,
    data,
    metadata: {},
    recordedAt: new Date(at.getTime() + position * 1000),
  });
  const created = (contractId: string, amount: number) =>
    recorded('DeliveryContractCreated', {
      contractId,
      reference: `REF-${contractId.slice(0, 8)}`,
      parentId: null,
      aggregatorUserId: randomUUID(),
      growerId: randomUUID(),
      growerUserId: randomUUID(),
      plotId: randomUUID(),
      productType: 'CAYENNE_LISSE',
      quantityKg: 2000,
      amount,
      deliveryDate: '2026-12-01',
      holdId: `contract-${contractId}`,
      createdBy: randomUUID(),
      createdAt: at.toISOString(),
    });
  const settled = (contractId: string, payable: number, recovered: number) =>
    recorded('DeliveryContractSettled', {
      contractId,
      deliveredKg: 2000,
      deliveredAmount: payable,
      payableAmount: payable,
      shortfall: 0,
      capturedFromHold: payable,
      releasedFromHold: 0,
      extraFromAvailable: 0,
      recoveries: recovered
        ? [{ debtId: 'd1', kind: 'AVANCE_SUR_INTRANT', amount: recovered }]
        : [],
      growerNet: payable - recovered,
      payoutId: null,
      settledBy: randomUUID(),
      settledAt: at.toISOString(),
    });
  const recoveredEvent = (debtId: string, contractId: string, amount: number) =>
    recorded('DebtRecovered', { debtId, contractId, amount, recoveredAt: at.toISOString() });

  it('settlements and recoveries in one batch: every row as one update per event left it', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const pushes: PushMessage[] = [];
    const events = [
      created(a, 10_000),
      created(b, 20_000),
      recorded('DebtOpened', {
        debtId: 'd1',
        kind: 'AVANCE_SUR_INTRANT',
        creditorUserId: randomUUID(),
        debtorGrowerId: randomUUID(),
        principal: 9_000,
        sourceContractId: null,
        openedAt: at.toISOString(),
      }),
      // One run's settlements, two of them recovering the same debt.
      settled(a, 10_000, 3_000),
      recoveredEvent('d1', a, 3_000),
      settled(b, 20_000, 4_000),
      recoveredEvent('d1', b, 4_000),
      // A contract created after them, then settled: its row exists before its update.
      created(c, 5_000),
      settled(c, 5_000, 0),
    ];
    await testDb.db.transaction().execute(async (trx) => {
      await contractsProjector.apply(trx as never, events, { push: (m) => pushes.push(m) });
    });
    const rows = await testDb.db
      .selectFrom('delivery_contracts')
      .select(['id', 'status', 'delivered_amount', 'recovered_amount', 'grower_net', 'updated_at'])
      .where('id', 'in', [a, b, c])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(a)).toMatchObject({
      status: 'COMPLETED',
      delivered_amount: 10_000,
      recovered_amount: 3_000,
      grower_net: 7_000,
    });
    expect(byId.get(b)).toMatchObject({ status: 'COMPLETED', grower_net: 16_000 });
    expect(byId.get(c)).toMatchObject({ status: 'COMPLETED', delivered_amount: 5_000 });
    expect(new Date(byId.get(b)!.updated_at).getTime()).toBe(events[5]!.recordedAt.getTime());
    const debt = await testDb.db
      .selectFrom('grower_debts')
      .select(['recovered'])
      .where('id', '=', 'd1')
      .executeTakeFirstOrThrow();
    expect(Number(debt.recovered)).toBe(7_000);
    expect(pushes.length).toBeGreaterThan(0);
  });
  it("tells an advance's creditor when its debt opens and when a contract recovers it", async () => {
    const contract = randomUUID();
    const [debtId, creditor] = [`d-${randomUUID()}`, randomUUID()];
    const apply = async (events: RecordedEvent[]) => {
      const pushes: PushMessage[] = [];
      await testDb.db.transaction().execute(async (trx) => {
        await contractsProjector.apply(trx as never, events, { push: (m) => pushes.push(m) });
      });
      return pushes;
    };
    const toCreditor = { type: 'contracts.updated', userIds: [creditor] };
    const opened = await apply([
      recorded('DebtOpened', {
        debtId,
        kind: 'AVANCE_SUR_ANANAS',
        creditorUserId: creditor,
        debtorGrowerId: randomUUID(),
        principal: 5_000,
        sourceContractId: null,
        openedAt: at.toISOString(),
      }),
    ]);
    expect(opened).toEqual([toCreditor]);
    const recovered = await apply([
      created(contract, 10_000),
      settled(contract, 10_000, 5_000),
      recoveredEvent(debtId, contract, 5_000),
    ]);
    expect(recovered).toContainEqual(toCreditor);
    // The contract's own push still goes to its aggregator and grower.
    expect(recovered).toContainEqual(
      expect.objectContaining({ data: { contractId: contract, status: 'COMPLETED' } }),
    );
  });

  it("tells the grower's cooperative when a contract of its grower changes (it confirms for it)", async () => {
    const db = testDb.db;
    const cluster = await seedCluster(db, 'Cluster du projecteur');
    const organization = await seedOrganization(db, 'Coopérative du projecteur', 'COOPERATIVE');
    const coop = await seedUser(db, 'ROLE_FARMER_ORGANIZATION', {
      clusterId: cluster,
      organizationId: organization,
    });
    await db
      .insertInto('cooperatives')
      .values({
        organization_id: organization,
        user_id: coop.id,
        cluster_id: cluster,
        ifu: '3202300000999',
      })
      .execute();
    const member = await seedUser(db, 'ROLE_GROWER', { clusterId: cluster });
    await db
      .insertInto('growers')
      .values({
        user_id: member.id,
        cluster_id: cluster,
        cooperative_id: organization,
        department_code: 'D03',
        commune_code: 'C017',
        arrondissement_code: 'A098',
        village_code: 'V1',
      })
      .execute();
    const [ofMember, ofOther] = [randomUUID(), randomUUID()];
    const event = (contractId: string, growerUserId: string) => {
      const e = created(contractId, 10_000);
      return { ...e, data: { ...(e.data as Record<string, unknown>), growerUserId } };
    };
    const pushes: PushMessage[] = [];
    await db.transaction().execute(async (trx) => {
      await contractsProjector.apply(
        trx as never,
        [event(ofMember, member.id), event(ofOther, randomUUID())],
        { push: (m) => pushes.push(m) },
      );
    });
    const to = (contractId: string) =>
      pushes.find((p) => (p as { data?: { contractId?: string } }).data?.contractId === contractId)!
        .userIds;
    expect(to(ofMember)).toHaveLength(3);
    expect(to(ofMember)).toContain(coop.id);
    expect(to(ofMember)).toContain(member.id);
    expect(to(ofOther)).toHaveLength(2);
  });

  it('a replay into another schema, one event per batch, gives the rows the live batch wrote, and leaves the live tables alone', async () => {
    // What ledger:check and ledger:rebuild do: the projector gets a Kysely bound to a scratch
    // schema. The first batching (e5bd7ed) wrote its settlements and recoveries with raw SQL
    // naming the tables, so the replay wrote the LIVE rows again (a debt recovered twice) and
    // its scratch copy never settled: the bank test's rebuild check failed.
    const [a, b] = [randomUUID(), randomUUID()];
    const debtId = `d-${randomUUID()}`;
    const events = [
      created(a, 10_000),
      created(b, 20_000),
      recorded('DebtOpened', {
        debtId,
        kind: 'FINANCEMENT_SOCIAL',
        creditorUserId: randomUUID(),
        debtorGrowerId: randomUUID(),
        principal: 15_000,
        sourceContractId: null,
        openedAt: at.toISOString(),
      }),
      settled(a, 10_000, 6_000),
      recoveredEvent(debtId, a, 6_000),
      settled(b, 20_000, 9_000),
      recoveredEvent(debtId, b, 9_000),
    ];
    const db = testDb.db;
    await db
      .transaction()
      .execute((trx) => applyEvents<Database>(trx, contractsProjector, events, 'public', []));
    const schema = 'contracts_replay_spec';
    await createShadowTables(db, contractsProjector, schema);
    try {
      for (const event of events) {
        await db
          .transaction()
          .execute((trx) => applyEvents<Database>(trx, contractsProjector, [event], schema, []));
      }
      const rows = async (from: string) => ({
        contracts: (
          await sql<Record<string, unknown>>`select * from ${sql.id(from, 'delivery_contracts')}
            where id in (${a}, ${b}) order by id`.execute(db)
        ).rows,
        debts: (
          await sql<Record<string, unknown>>`select * from ${sql.id(from, 'grower_debts')}
            where id = ${debtId}`.execute(db)
        ).rows,
      });
      const live = await rows('public');
      expect(live.contracts.map((r) => r.status)).toEqual(['COMPLETED', 'COMPLETED']);
      expect(live.debts.map((r) => Number(r.recovered))).toEqual([15_000]);
      expect(await rows(schema)).toEqual(live);
    } finally {
      await dropSchema(db, schema);
    }
  });
});
