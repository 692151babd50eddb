import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { narrowDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp, checkProjector, type PushMessage } from '@filiere/projections';
import { appendTestEvents, type NewTestEvent } from '@filiere/projections/testing';
import type { Database } from '../../database.js';
import { bearer, seedCluster, seedUser } from '../../identity/test-support.js';
import type { RoleCode } from '../../kernel/roles.js';
import { product } from '../../modules.js';
import { buildTestApp } from '../../test-app.js';
import { boardProjector } from './read-model/projector.js';
import type { GrowersStatsAnswer } from './schemas.js';

const decode = catalogueDecoder(product.catalogue);
const postings = (amount: number) => [
  { account: 'a', amount: -amount },
  { account: 'b', amount },
];

describe('reporting-board: projector and routes (real PostgreSQL)', () => {
  const testDb = useTestDatabase<Database>();
  const db = () => narrowDb<Database>()(testDb.db);
  let app: FastifyInstance;
  const pushes: PushMessage[] = [];
  const users = new Map<string, { id: string; wallet: string; headers: Record<string, string> }>();
  let clusterA: string;
  let clusterB: string;
  const G1 = randomUUID();
  const G2 = randomUUID();
  const G3 = randomUUID();
  const P1 = randomUUID();

  const project = () =>
    catchUp(testDb.db, boardProjector, {
      decode,
      publish: async (messages) => void pushes.push(...messages),
    });
  const get = (who: string, url: string) =>
    app.inject({ method: 'GET', url, headers: users.get(who)!.headers });
  const u = (who: string) => users.get(who)!;
  const registered = (
    growerId: string,
    who: string,
    clusterId: string,
    plots: { plotId: string; areaSown: number }[],
  ): NewTestEvent => ({
    streamId: `grower-${growerId}`,
    type: 'GrowerRegistered',
    data: {
      growerId,
      userId: u(who).id,
      actorId: u(who).id,
      reference: `PRD-${who}`,
      clusterId,
      cooperativeId: null,
      villageCode: 'A098-001',
      plotIds: plots.map((p) => p.plotId),
      plots,
    },
  });
  const opened = (who: string): NewTestEvent => ({
    streamId: `wallet-${u(who).wallet}`,
    type: 'WalletOpened',
    data: { walletId: u(who).wallet, ownerUserId: u(who).id },
  });

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
    clusterA = await seedCluster(testDb.db, 'Cluster Nord');
    clusterB = await seedCluster(testDb.db, 'Cluster Sud');
    const seed = async (who: string, role: RoleCode, clusterId: string | null) => {
      const s = await seedUser(testDb.db, role, { clusterId });
      const { wallet_id } = await db()
        .selectFrom('users')
        .select('wallet_id')
        .where('id', '=', s.id)
        .executeTakeFirstOrThrow();
      users.set(who, { id: s.id, wallet: wallet_id, headers: bearer(app, s, role) });
    };
    await seed('admin', 'ROLE_SUPER_ADMIN', null);
    await seed('cmA', 'ROLE_CLUSTER_MANAGER', clusterA);
    await seed('a1', 'ROLE_INDUSTRIAL', clusterA);
    await seed('a2', 'ROLE_INDUSTRIAL', clusterB);
    await seed('g1', 'ROLE_GROWER', clusterA);
    await seed('g2', 'ROLE_GROWER', clusterA);
    await seed('g3', 'ROLE_GROWER', clusterB);
    await db()
      .updateTable('users')
      .set({ lastname: 'Zinsou', firstname: 'Élodie' })
      .where('id', '=', u('g2').id)
      .execute();

    await appendTestEvents(testDb.db, [
      registered(G1, 'g1', clusterA, [
        { plotId: P1, areaSown: 1.25 },
        { plotId: randomUUID(), areaSown: 0.5 },
      ]),
      registered(G2, 'g2', clusterA, []),
      registered(G3, 'g3', clusterB, [{ plotId: randomUUID(), areaSown: 3 }]),
      opened('a1'),
      opened('a2'),
      opened('g1'),
    ]);
    await project();
    await appendTestEvents(testDb.db, [
      {
        streamId: `grower-${G2}`,
        type: 'PlotAdded',
        data: {
          growerId: G2,
          plotId: randomUUID(),
          actorId: u('cmA').id,
          productType: 'CAYENNE_LISSE',
          villageCode: 'A098-001',
          name: 'Parcelle',
          areaSown: 2.1,
        },
      },
      {
        streamId: `grower-${G1}`,
        type: 'PlotChanged',
        data: {
          growerId: G1,
          plotId: P1,
          actorId: u('cmA').id,
          changes: [{ field: 'area_sown', from: 1.25, to: 3.1 }],
        },
      },
      {
        streamId: `wallet-${u('a1').wallet}`,
        type: 'SupplyCredited',
        data: {
          walletId: u('a1').wallet,
          reference: 'APP-1',
          method: 'BANK',
          amount: 1_000_000,
          providerTransactionId: null,
          postings: postings(1_000_000),
        },
      },
      {
        streamId: `wallet-${u('a2').wallet}`,
        type: 'SupplyCredited',
        data: {
          walletId: u('a2').wallet,
          reference: 'APP-2',
          method: 'MOBILE_MONEY',
          amount: 300_000,
          providerTransactionId: 'p',
          postings: postings(300_000),
        },
      },
      {
        streamId: `wallet-${u('a1').wallet}`,
        type: 'TransferSent',
        data: {
          reference: 'TRF-1',
          fromWalletId: u('a1').wallet,
          toWalletId: u('g1').wallet,
          amount: 150_000,
          reason: 'Paiement',
          postings: postings(150_000),
        },
      },
      {
        streamId: `wallet-${u('g1').wallet}`,
        type: 'WithdrawalDebited',
        data: {
          withdrawalId: 'w1',
          walletId: u('g1').wallet,
          method: 'MOBILE_MONEY',
          amount: 100_000,
          destination: '+2290197000001',
          postings: postings(100_000),
        },
      },
    ]);
    await project();
  });
  afterAll(async () => app?.close());

  it("growers-stats: 'Superficie emblavée (ha)' sums the plots' areaSown (registered, added, changed), by cluster, searched and paginated", async () => {
    const all = await get('admin', '/api/reporting/growers-stats');
    expect(all.statusCode, all.body).toBe(200);
    const body: GrowersStatsAnswer = all.json();
    expect(body.count).toBe(3);
    expect(body.cards).toEqual({ growers: 3, plots: 4, areaSown: 8.7 });
    const a = (await get('admin', `/api/reporting/growers-stats?clusterId=${clusterA}`)).json();
    expect(a.cards).toEqual({ growers: 2, plots: 3, areaSown: 5.7 });
    const g1 = a.data.find((r: { growerId: string }) => r.growerId === G1);
    expect(g1).toMatchObject({ reference: 'PRD-g1', areaSown: 3.6, plots: 2 });
    expect(a.data.find((r: { growerId: string }) => r.growerId === G2)).toMatchObject({
      lastname: 'Zinsou',
      firstname: 'Élodie',
      areaSown: 2.1,
    });
    const searched = (await get('admin', '/api/reporting/growers-stats?q=zins')).json();
    expect(searched.count).toBe(1);
    expect(searched.data[0].growerId).toBe(G2);
    expect(searched.cards.growers).toBe(3); // the cards ignore q
    const page2 = (await get('admin', '/api/reporting/growers-stats?page=2&limit=2')).json();
    expect(page2.count).toBe(3);
    expect(page2.data).toHaveLength(1);
    expect((await get('admin', '/api/reporting/growers-stats?limit=0')).statusCode).toBe(400);
    expect(
      (await get('admin', `/api/reporting/growers-stats?clusterId=${randomUUID()}`)).statusCode,
    ).toBe(404);
  });

  it('transactions-stats: the six cards, all clusters or the one picked (by the wallet owner’s cluster)', async () => {
    const all = (await get('admin', '/api/reporting/transactions-stats')).json();
    expect(all).toEqual({
      countDebit: 1,
      totalDebit: 100_000,
      countSupplies: 2,
      totalSupplies: 1_300_000,
      countTransfer: 1,
      totalTransfer: 150_000,
    });
    const b = (
      await get('admin', `/api/reporting/transactions-stats?clusterId=${clusterB}`)
    ).json();
    expect(b).toEqual({
      countDebit: 0,
      totalDebit: 0,
      countSupplies: 1,
      totalSupplies: 300_000,
      countTransfer: 0,
      totalTransfer: 0,
    });
  });

  it('the .xlsx holds the cards and the growers table', async () => {
    const res = await get('admin', `/api/reporting/export.xlsx?clusterId=${clusterA}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const tx = book.getWorksheet('Transactions')!;
    expect(tx.getRow(2).values).toEqual([undefined, 'Cluster', 'Cluster Nord']);
    expect(tx.getRow(6).values).toEqual([
      undefined,
      'Montant des approvisionnements (FCFA)',
      1_000_000,
    ]);
    const sheet = book.getWorksheet('Producteurs')!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Nom',
      'Prénoms',
      'Téléphone',
      'Superficie emblavée (ha)',
    ]);
    const areas = [2, 3].map((n) => sheet.getRow(n).getCell(4).value).sort();
    expect(areas).toEqual([2.1, 3.6]);
  });

  it('only the super admin reads the board', async () => {
    for (const who of ['cmA', 'a1', 'g1']) {
      for (const url of [
        '/api/reporting/growers-stats',
        '/api/reporting/transactions-stats',
        '/api/reporting/export.xlsx',
      ]) {
        expect((await get(who, url)).statusCode, `${who} ${url}`).toBe(403);
      }
    }
  });

  it('pushes reporting.board to the super admins and rebuilds identically', async () => {
    const last = pushes.filter((p) => p.type === 'reporting.board').at(-1)!;
    expect(last.userIds).toContain(u('admin').id);
    expect(last.userIds).not.toContain(u('cmA').id);
    const check = await checkProjector(testDb.db, boardProjector, { decode });
    expect(check.differences).toEqual([]);
  });
});
