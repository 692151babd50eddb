import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp, checkProjector, type PushMessage } from '@filiere/projections';
import { appendTestEvents, type NewTestEvent } from '@filiere/projections/testing';
import type { Database } from '../../database.js';
import { bearer, seedCluster, seedOrganization, seedUser } from '../../identity/test-support.js';
import type { RoleCode } from '../../kernel/roles.js';
import { product } from '../../modules.js';
import { buildTestApp } from '../../test-app.js';
import { dashboardProjector } from './read-model/projector.js';
import { resolveRange } from './range.js';
import type { ContractsStatsAnswer, PersonalDashboardAnswer } from './schemas.js';

const decode = catalogueDecoder(product.catalogue);

describe('resolveRange: the presets in Africa/Porto-Novo days', () => {
  it('today turns at 23:00 UTC (midnight in Porto-Novo), and the presets count back from it', () => {
    const before = new Date('2026-03-31T22:59:59.999Z');
    const after = new Date('2026-03-31T23:00:00.000Z');
    expect(resolveRange({ preset: 'TODAY' }, before)).toEqual({
      from: '2026-03-31',
      to: '2026-03-31',
    });
    expect(resolveRange({ preset: 'TODAY' }, after)).toEqual({
      from: '2026-04-01',
      to: '2026-04-01',
    });
    expect(resolveRange({ preset: 'LAST_WEEK' }, after)).toEqual({
      from: '2026-03-25',
      to: '2026-04-01',
    });
    expect(resolveRange({ preset: 'LAST_MONTH' }, before)).toEqual({
      from: '2026-02-28',
      to: '2026-03-31',
    });
    expect(resolveRange({ preset: 'LAST_YEAR' }, new Date('2028-02-29T12:00:00Z'))).toEqual({
      from: '2027-02-28',
      to: '2028-02-29',
    });
    expect(resolveRange({ preset: 'ALL' }, after)).toEqual({ from: null, to: '2026-04-01' });
    expect(resolveRange({}, after)).toEqual({ from: null, to: '2026-04-01' });
    // Explicit days win over a preset.
    expect(resolveRange({ from: '2026-01-01', preset: 'TODAY' }, after)).toEqual({
      from: '2026-01-01',
      to: '2026-04-01',
    });
  });
});

describe('reporting-dashboard: projector and routes (real PostgreSQL)', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  const pushes: PushMessage[] = [];
  const users = new Map<string, { id: string; headers: Record<string, string> }>();
  let clusterA: string;
  let clusterB: string;
  let coopA: string;
  const G1 = randomUUID();
  const G2 = randomUUID();

  const project = () =>
    catchUp(testDb.db, dashboardProjector, {
      decode,
      publish: async (messages) => void pushes.push(...messages),
    });
  const id = (who: string) => users.get(who)!.id;
  const get = (who: string, url: string) =>
    app.inject({ method: 'GET', url, headers: users.get(who)!.headers });
  const stats = async (who: string, query: string): Promise<ContractsStatsAnswer> => {
    const res = await get(who, `/api/contracts/stats?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  const grower = (
    growerId: string,
    userId: string,
    clusterId: string,
    cooperativeId: string | null,
  ) => ({
    streamId: `grower-${growerId}`,
    type: 'GrowerRegistered',
    data: {
      growerId,
      userId,
      actorId: userId,
      reference: `PRD-${growerId.slice(0, 6)}`,
      clusterId,
      cooperativeId,
      villageCode: 'A098-001',
      plotIds: [],
    },
  });
  const created = (
    contractId: string,
    aggregatorUserId: string,
    growerId: string,
    growerUserId: string,
    quantityKg: number,
    amount: number,
    createdAt: string,
  ): NewTestEvent => ({
    streamId: `contract-${contractId}`,
    type: 'DeliveryContractCreated',
    data: {
      contractId,
      reference: `CTR-${contractId}`,
      parentId: null,
      aggregatorUserId,
      growerId,
      growerUserId,
      plotId: randomUUID(),
      productType: 'CAYENNE_LISSE',
      quantityKg,
      amount,
      deliveryDate: '2026-06-30',
      holdId: `hold-${contractId}`,
      createdBy: aggregatorUserId,
      createdAt,
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

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
    clusterA = await seedCluster(testDb.db, 'Cluster A');
    clusterB = await seedCluster(testDb.db, 'Cluster B');
    coopA = await seedOrganization(testDb.db, 'Coopérative A', 'COOPERATIVE');
    const seed = async (
      who: string,
      role: RoleCode,
      clusterId: string | null,
      organizationId: string | null = null,
    ) => {
      const u = await seedUser(testDb.db, role, { clusterId, organizationId });
      users.set(who, { id: u.id, headers: bearer(app, u, role) });
    };
    await seed('a1', 'ROLE_INDUSTRIAL', clusterA);
    await seed('a2', 'ROLE_INDUSTRIAL', clusterB);
    await seed('cmA', 'ROLE_CLUSTER_MANAGER', clusterA);
    await seed('cmB', 'ROLE_CLUSTER_MANAGER', clusterB);
    await seed('admin', 'ROLE_SUPER_ADMIN', null);
    await seed('g1', 'ROLE_GROWER', clusterA);
    await seed('g2', 'ROLE_GROWER', clusterB);
    await seed('coopA', 'ROLE_FARMER_ORGANIZATION', clusterA, coopA);
    await seed('sfd', 'ROLE_SFD', clusterA);

    await appendTestEvents(testDb.db, [
      grower(G1, id('g1'), clusterA, coopA),
      grower(G2, id('g2'), clusterB, null),
      debt('d1', 'AVANCE_SUR_INTRANT', id('a1'), G1, 50_000, '2026-02-01T09:00:00.000Z'),
      debt('d2', 'FINANCEMENT_SOCIAL', id('sfd'), G1, 40_000, '2026-03-01T09:00:00.000Z'),
      debt('d3', 'AVANCE_SUR_ANANAS', id('a2'), G2, 100_000, '2026-03-02T09:00:00.000Z'),
      created('c1', id('a1'), G1, id('g1'), 2_000, 200_000, '2026-03-10T10:00:00.000Z'),
    ]);
    await project();
    await appendTestEvents(testDb.db, [
      {
        streamId: 'contract-c1',
        type: 'DeliveryContractConfirmed',
        data: { contractId: 'c1', confirmedBy: id('g1'), confirmedAt: '2026-03-11T10:00:00.000Z' },
      },
      {
        streamId: 'contract-c1',
        type: 'DeliveryRecorded',
        data: {
          contractId: 'c1',
          deliveredKg: 1_800,
          deliveredOn: '2026-03-15',
          recordedBy: id('a1'),
          recordedAt: '2026-03-15T10:00:00.000Z',
        },
      },
      // 23:30 UTC on the 15th is the 16th in Porto-Novo.
      {
        streamId: 'contract-c1',
        type: 'DeliveryContractSettled',
        data: {
          contractId: 'c1',
          deliveredKg: 1_800,
          deliveredAmount: 180_000,
          payableAmount: 180_000,
          shortfall: 0,
          capturedFromHold: 180_000,
          releasedFromHold: 20_000,
          extraFromAvailable: 0,
          recoveries: [],
          growerNet: 150_000,
          payoutId: null,
          settledBy: id('a1'),
          settledAt: '2026-03-15T23:30:00.000Z',
        },
      },
      {
        streamId: 'debt-d1',
        type: 'DebtRecovered',
        data: {
          debtId: 'd1',
          contractId: 'c1',
          amount: 30_000,
          recoveredAt: '2026-03-15T23:30:00.000Z',
        },
      },
      // Created at 23:30 UTC on 31 March: 1 April in Porto-Novo.
      created('c2', id('a1'), G1, id('g1'), 1_000, 100_000, '2026-03-31T23:30:00.000Z'),
      created('c3', id('a2'), G2, id('g2'), 5_000, 500_000, '2026-03-12T08:00:00.000Z'),
      {
        streamId: 'contract-c3',
        type: 'DeliveryContractOutOfTime',
        data: { contractId: 'c3', deliveryDate: '2026-03-20', at: '2026-03-21T00:00:00.000Z' },
      },
      {
        streamId: 'carriage-k1',
        type: 'CarriageContractCreated',
        data: {
          contractId: 'k1',
          reference: 'TRP-1',
          aggregatorUserId: id('a1'),
          carrierId: randomUUID(),
          carrierUserId: randomUUID(),
          vehicleId: randomUUID(),
          carType: 'CAMION',
          registration: 'AB 1234',
          transportDate: '2026-03-20',
          amount: 25_000,
          description: null,
          holdId: 'hold-k1',
          createdBy: id('a1'),
          createdAt: '2026-03-11T08:00:00.000Z',
        },
      },
      {
        streamId: 'carriage-k2',
        type: 'CarriageContractCreated',
        data: {
          contractId: 'k2',
          reference: 'TRP-2',
          aggregatorUserId: id('a1'),
          carrierId: randomUUID(),
          carrierUserId: randomUUID(),
          vehicleId: randomUUID(),
          carType: 'CAMION',
          registration: 'AB 1235',
          transportDate: '2026-03-22',
          amount: 30_000,
          description: null,
          holdId: 'hold-k2',
          createdBy: id('a1'),
          createdAt: '2026-03-12T08:00:00.000Z',
        },
      },
      {
        streamId: 'carriage-k1',
        type: 'CarriageContractPaid',
        data: {
          contractId: 'k1',
          carrierWalletId: randomUUID(),
          amount: 25_000,
          paidBy: id('a1'),
          paidAt: '2026-03-20T10:00:00.000Z',
        },
      },
    ]);
    await project();
  });
  afterAll(async () => app?.close());

  it("the aggregator's cards, in March and up to 1 April (a contract created at 23:30 UTC on 31 March is April's)", async () => {
    const march = await stats('a1', 'from=2026-03-01&to=2026-03-31');
    expect(march.range).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    expect(march.scope).toEqual({ kind: 'AGGREGATOR', clusterId: null, aggregatorId: id('a1') });
    expect(march.delivery).toEqual({
      totalContracts: 1,
      totalToConfirm: 0,
      availableProduction: 0,
      executedContracts: 1,
      delayedContracts: 0,
      canceledContracts: 0,
    });
    expect(march.globals).toEqual({ waitingDelivery: 0, waitingQuantity: 0, amountToPaid: 0 });
    expect(march.carriage).toEqual({ totalContracts: 2, totalToConfirm: 1, executedContracts: 1 });
    // The producers it contracts with (G1): 50 000 − 30 000 input advance, 40 000 SFD.
    expect(march.debt).toEqual({
      totalDebt: 60_000,
      inputAdvanceDebt: 20_000,
      financialDebt: 40_000,
      pineappleAdvanceDebt: 0,
    });
    // Opened in February: outside March's flows.
    expect(march.inputAdvance).toEqual({
      totalContracts: 0,
      totalAmount: 0,
      recoveredAmount: 0,
      remainingAmount: 0,
    });
    expect(march.purchases).toHaveLength(12);
    expect(march.purchases[2]).toEqual({ month: '2026-03', tonnes: 1.8 });
    expect(march.purchases.reduce((s, p) => s + p.tonnes, 0)).toBe(1.8);
    expect(march.debts.slice(0, 4)).toEqual([
      { month: '2026-01', amount: 0 },
      { month: '2026-02', amount: 50_000 },
      { month: '2026-03', amount: 60_000 },
      { month: '2026-04', amount: 60_000 },
    ]);

    const april1 = await stats('a1', 'from=2026-03-01&to=2026-04-01');
    expect(april1.delivery.totalContracts).toBe(2);
    expect(april1.globals).toEqual({ waitingDelivery: 1, waitingQuantity: 1, amountToPaid: 0 });
    expect(april1.delivery.totalToConfirm).toBe(1);

    const all = await stats('a1', 'preset=ALL');
    expect(all.range.from).toBeNull();
    expect(all.inputAdvance).toEqual({
      totalContracts: 1,
      totalAmount: 50_000,
      recoveredAmount: 30_000,
      remainingAmount: 20_000,
    });
    // contracts/stats/{own id} answers the same.
    const own = await get('a1', `/api/contracts/stats/${id('a1')}?preset=ALL`);
    expect(own.json()).toEqual(all);
  });

  it('an aggregator never sees another aggregator: aggregatorId, clusterId or stats/{id} of another is 403', async () => {
    expect((await get('a1', `/api/contracts/stats?aggregatorId=${id('a2')}`)).statusCode).toBe(403);
    expect((await get('a1', `/api/contracts/stats?clusterId=${clusterB}`)).statusCode).toBe(403);
    const other = await get('a1', `/api/contracts/stats/${id('a2')}`);
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe('Vous ne pouvez consulter que vos propres statistiques');
    // a2 sees its OUTTIME contract and not a1's.
    const a2 = await stats('a2', 'preset=ALL');
    expect(a2.delivery).toMatchObject({
      totalContracts: 1,
      delayedContracts: 1,
      executedContracts: 0,
    });
    expect(a2.debt.pineappleAdvanceDebt).toBe(100_000);
    expect(a2.debt.financialDebt).toBe(0);
  });

  it('a cluster manager sees its cluster only; the super admin everything, a cluster or an aggregator', async () => {
    const cm = await stats('cmA', 'preset=ALL');
    expect(cm.scope).toEqual({ kind: 'CLUSTER', clusterId: clusterA, aggregatorId: null });
    expect(cm.delivery).toMatchObject({ totalContracts: 2, delayedContracts: 0 });
    expect(cm.debt.totalDebt).toBe(60_000);
    expect((await get('cmA', `/api/contracts/stats?clusterId=${clusterB}`)).statusCode).toBe(403);
    expect((await get('cmA', `/api/contracts/stats?aggregatorId=${id('a2')}`)).statusCode).toBe(
      403,
    );
    expect((await get('cmA', `/api/contracts/stats/${id('a2')}`)).statusCode).toBe(403);
    const a1ByCm = await stats('cmA', `aggregatorId=${id('a1')}`);
    expect(a1ByCm.scope.kind).toBe('AGGREGATOR');
    expect(a1ByCm.delivery.totalContracts).toBe(2);

    const everything = await stats('admin', 'preset=ALL');
    expect(everything.delivery).toMatchObject({
      totalContracts: 3,
      delayedContracts: 1,
      executedContracts: 1,
    });
    expect(everything.debt.totalDebt).toBe(160_000);
    // ALL reads EVERYONE's rows (kept by the projector): the sum of the two aggregators' answers.
    const [ofA1, ofA2] = [
      await stats('admin', `aggregatorId=${id('a1')}&preset=ALL`),
      await stats('admin', `aggregatorId=${id('a2')}&preset=ALL`),
    ];
    const sum = (block: 'delivery' | 'carriage' | 'inputAdvance' | 'globals') =>
      Object.fromEntries(
        Object.entries(ofA1[block]).map(([k, v]) => [
          k,
          Math.round(((v as number) + (ofA2[block] as Record<string, number>)[k]!) * 1000) / 1000,
        ]),
      );
    for (const block of ['delivery', 'carriage', 'inputAdvance', 'globals'] as const) {
      expect(everything[block], block).toEqual(sum(block));
    }
    expect(everything.inputAdvance.totalContracts).toBeGreaterThan(0);
    expect(everything.purchases.map((m) => m.tonnes)).toEqual(
      ofA1.purchases.map(
        (m, i) => Math.round((m.tonnes + ofA2.purchases[i]!.tonnes) * 1000) / 1000,
      ),
    );
    const b = await stats('admin', `clusterId=${clusterB}`);
    expect(b.delivery).toMatchObject({ totalContracts: 1, delayedContracts: 1 });
    expect(b.debt.totalDebt).toBe(100_000);
    const byId = await get('admin', `/api/contracts/stats/${id('a2')}`);
    expect(byId.json().delivery.totalContracts).toBe(1);
    expect((await get('admin', `/api/contracts/stats?clusterId=${randomUUID()}`)).statusCode).toBe(
      404,
    );
    expect((await get('admin', `/api/contracts/stats/${id('g1')}`)).json().message).toBe(
      'Agrégateur introuvable',
    );
    const bad = await get('admin', '/api/contracts/stats?from=2026-13-01');
    expect(bad.statusCode).toBe(400);
    // Roles with no contracts use dashboard/me.
    expect((await get('g1', '/api/contracts/stats')).statusCode).toBe(403);
    expect((await get('a1', '/api/dashboard/me')).statusCode).toBe(403);
  });

  it('dashboard/me: the grower its contracts, debts and payments; its cooperative the same; the SFD its financings', async () => {
    const me = async (who: string): Promise<PersonalDashboardAnswer> => {
      const res = await get(who, '/api/dashboard/me?preset=ALL');
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const g1 = await me('g1');
    expect(g1.kind).toBe('GROWER');
    expect(g1.contracts).toMatchObject({
      totalContracts: 2,
      executedContracts: 1,
      waitingDelivery: 1,
    });
    expect(g1.payments).toEqual({ count: 1, total: 150_000 });
    expect(g1.debt.totalDebt).toBe(60_000);
    // The chart shows the months of the range's last year: up to today's year with ALL, so the
    // test's 2026 purchases are asked for with a range ending in 2026.
    const g1In2026 = await get('g1', '/api/dashboard/me?to=2026-12-31');
    expect(g1In2026.statusCode, g1In2026.body).toBe(200);
    expect((g1In2026.json() as PersonalDashboardAnswer).purchases[2]).toEqual({
      month: '2026-03',
      tonnes: 1.8,
    });
    const g2 = await me('g2');
    expect(g2.contracts).toMatchObject({ totalContracts: 1, delayedContracts: 1 });
    expect(g2.payments).toEqual({ count: 0, total: 0 });
    const coop = await me('coopA');
    expect(coop.kind).toBe('FARMER_ORGANIZATION');
    expect(coop.contracts?.totalContracts).toBe(2);
    const sfd = await me('sfd');
    expect(sfd).toMatchObject({
      kind: 'SFD',
      contracts: null,
      payments: null,
      financing: { count: 1, principal: 40_000, recovered: 0, outstanding: 40_000 },
    });
  });

  it('pushes reporting.dashboard to the users whose figures changed, and rebuilds identically', async () => {
    const last = pushes.filter((p) => p.type === 'reporting.dashboard').at(-1)!;
    expect(last.data).toBeUndefined();
    for (const who of ['a1', 'a2', 'g1', 'g2', 'cmA', 'cmB', 'admin', 'coopA']) {
      expect(last.userIds, who).toContain(id(who));
    }
    const check = await checkProjector(testDb.db, dashboardProjector, { decode });
    expect(check.differences).toEqual([]);
  });
});
