import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { beninYear, useTestDatabase } from '@filiere/platform/testing';
import { bearer, seedCluster, seedUser } from '../../../identity/test-support.js';
import type { RoleCode } from '../../../http/auth.js';
import { buildTestApp } from '../../../test-app.js';
import { WalletEvents } from './test-events.js';
import type { Database } from '../../../database.js';

const t = useTestDatabase<Database>();
let app: FastifyInstance;

interface U {
  id: string;
  walletId: string;
  role: RoleCode;
  firstname: string;
  lastname: string;
  /** As stored: identity's seeder gives each user its own phone. */
  phone: string | null;
}
const users: Record<'a' | 'b' | 'g' | 'admin' | 'superAdmin' | 'empty', U> = {} as never;

async function seed(role: RoleCode, clusterId: string | null): Promise<U> {
  const { id } = await seedUser(t.db, role, { clusterId });
  const row = await t.db
    .selectFrom('users')
    .select(['wallet_id', 'firstname', 'lastname', 'phone'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return {
    id,
    walletId: row.wallet_id,
    role,
    firstname: row.firstname,
    lastname: row.lastname,
    phone: row.phone,
  };
}

const get = (who: U | null, url: string) =>
  app.inject({ method: 'GET', url, headers: who ? bearer(app, who, who.role) : {} });

beforeAll(async () => {
  app = await buildTestApp(t.db);
  const cluster = await seedCluster(t.db, `Allada ${Date.now()}`);
  users.a = await seed('ROLE_INDUSTRIAL', cluster);
  users.g = await seed('ROLE_GROWER', cluster);
  users.b = await seed('ROLE_INDUSTRIAL', null);
  users.admin = await seed('ROLE_ADMIN', null);
  users.superAdmin = await seed('ROLE_SUPER_ADMIN', null);
  users.empty = await seed('ROLE_GROWER', cluster);
  const { a, b, g } = users;
  await t.db.updateTable('users').set({ nip: '1234567890' }).where('id', '=', g.id).execute();
  await new WalletEvents(t.db)
    .open(a.walletId, a.id)
    .open(b.walletId, b.id)
    .open(g.walletId, g.id)
    .supply(a.walletId, a.id, 'SUP-A', 50_000)
    .supply(a.walletId, a.id, 'SUP-BANK', 20_000, 'BANK', false)
    .transfer(a.walletId, g.walletId, 'TR-1', 7_000, 'Achat d’ananas')
    .finance(
      { walletId: a.walletId, userId: a.id },
      { walletId: b.walletId, userId: b.id },
      'FIN-1',
      3_000,
    )
    .commit();
});

afterAll(async () => {
  await app.close();
});

describe('wallet queries', () => {
  it('refuses anonymous callers (401)', async () => {
    for (const url of [
      '/api/wallet/stats',
      '/api/transaction',
      `/api/supply/stats/${users.a.id}`,
    ]) {
      expect((await get(null, url)).statusCode, url).toBe(401);
    }
  });

  it('GET wallet/stats: the caller’s balance, available balance and last transaction', async () => {
    const res = await get(users.a, '/api/wallet/stats');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      balance: 40_000,
      availableBalance: 40_000,
      lastTransactionAmout: 3_000,
    });
    expect(Date.parse(res.json().lastTransactionDate)).not.toBeNaN();
    expect((await get(users.empty, '/api/wallet/stats')).json()).toEqual({
      balance: 0,
      availableBalance: 0,
      lastTransactionAmout: null,
      lastTransactionDate: null,
    });
  });

  it('GET wallet/stats/{walletId}/{year}: 12 monthly counts, own wallet or admin only', async () => {
    // Benin's year: the stats count months in Benin time (UTC+1), a new year an hour early.
    const year = beninYear();
    const own = await get(users.a, `/api/wallet/stats/${users.a.walletId}/${year}`);
    expect(own.statusCode).toBe(200);
    expect(own.json().paiementStats).toHaveLength(12);
    const sum = (own.json().paiementStats as number[]).reduce((x, y) => x + y, 0);
    expect(sum).toBe(3);
    expect((await get(users.g, `/api/wallet/stats/${users.a.walletId}/${year}`)).statusCode).toBe(
      403,
    );
    expect(
      (await get(users.admin, `/api/wallet/stats/${users.a.walletId}/${year}`)).statusCode,
    ).toBe(200);
    expect((await get(users.a, `/api/wallet/stats/${users.a.walletId}/abc`)).statusCode).toBe(400);
  });

  it('GET transaction: own rows for users, all rows for admins; q, status, page and limit', async () => {
    const own = await get(users.a, '/api/transaction');
    expect(own.statusCode).toBe(200);
    expect(own.json().count).toBe(3);
    expect(own.json().data.map((r: { operationType: string }) => r.operationType)).toEqual([
      'STANDARD',
      'TRANSFER',
      'SUPPLY',
    ]);
    const transfer = own.json().data[1];
    expect(transfer).toMatchObject({
      reference: 'TR-1',
      amount: 7_000,
      direction: 'OUT',
      status: 'SUCCESS',
      reason: 'Achat d’ananas',
      destination: { walletId: users.g.walletId, user: { id: users.g.id, nip: '1234567890' } },
      source: { user: { id: users.a.id, firstname: users.a.firstname, nip: null } },
    });
    expect((await get(users.a, '/api/transaction?q=ananas')).json().count).toBe(1);
    expect((await get(users.a, `/api/transaction?q=${users.g.lastname}`)).json().count).toBe(1);
    expect((await get(users.a, '/api/transaction?status=FAILED')).json()).toEqual({
      data: [],
      count: 0,
    });
    const paged = (await get(users.a, '/api/transaction?page=2&limit=2')).json();
    expect(paged.count).toBe(3);
    expect(paged.data).toHaveLength(1);
    expect((await get(users.a, '/api/transaction?limit=-1')).json().data).toHaveLength(3);
    expect((await get(users.a, '/api/transaction?status=NOPE')).statusCode).toBe(400);
    expect((await get(users.g, '/api/transaction')).json().count).toBe(1);
    expect((await get(users.admin, '/api/transaction')).json().count).toBe(5);
  });

  it('GET transaction/{id}: detail for the owner or an admin, 403 for others, 404 when unknown', async () => {
    const row = (await get(users.a, '/api/transaction?q=TR-1')).json().data[0];
    const detail = await get(users.a, `/api/transaction/${row.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      reference: 'TR-1',
      amount: 7_000,
      reason: 'Achat d’ananas',
      // Wallet to wallet: no mobile money involved (it said MOBILE_MONEY for every row).
      paymentMeans: 'WALLET',
      beneficiary: {
        name: `${users.g.firstname} ${users.g.lastname}`,
        nip: '1234567890',
        // The beneficiary's (the grower's) phone as stored, not the caller's: each seeded user
        // has its own phone, so this also tells the two apart.
        phone: users.g.phone,
      },
    });
    expect(users.g.phone).toMatch(/^\+229\d{10}$/);
    expect(users.g.phone).not.toBe(users.a.phone);
    expect((await get(users.b, `/api/transaction/${row.id}`)).statusCode).toBe(403);
    expect((await get(users.superAdmin, `/api/transaction/${row.id}`)).statusCode).toBe(200);
    expect((await get(users.a, '/api/transaction/999999')).statusCode).toBe(404);
    expect((await get(users.a, '/api/transaction/abc')).statusCode).toBe(400);
  });

  it('users.nip: numeric text of at most 10 characters (the database refuses anything else)', async () => {
    for (const bad of ['12345678901', '12A4', '']) {
      await expect(
        t.db.updateTable('users').set({ nip: bad }).where('id', '=', users.b.id).execute(),
        bad,
      ).rejects.toThrow(/users_nip_check|check constraint/);
    }
    // The grower's own view names the aggregator as source, with its (absent) NIP.
    const row = (await get(users.g, '/api/transaction')).json().data[0];
    expect(row.source.user).toMatchObject({ id: users.a.id, nip: null });
    expect(row.destination.user).toMatchObject({ id: users.g.id, nip: '1234567890' });
  });

  it('GET transaction/stats: reporting totals of the own wallet, of every wallet for admins', async () => {
    expect((await get(users.a, '/api/transaction/stats')).json()).toEqual({
      countDebit: 0,
      totalDebit: 0,
      countSupplies: 1,
      totalSupplies: 50_000,
      countTransfer: 1,
      totalTransfer: 7_000,
    });
    expect((await get(users.g, '/api/transaction/stats')).json().countSupplies).toBe(0);
    expect((await get(users.admin, '/api/transaction/stats')).json().totalTransfer).toBe(7_000);
  });

  it('GET transaction/user/{id}: self or admin; another user’s → 403', async () => {
    expect((await get(users.a, `/api/transaction/user/${users.a.id}`)).json().count).toBe(3);
    expect((await get(users.g, `/api/transaction/user/${users.a.id}`)).statusCode).toBe(403);
    expect((await get(users.admin, `/api/transaction/user/${users.g.id}`)).json().count).toBe(1);
    expect((await get(users.a, '/api/transaction/user/not-a-uuid')).statusCode).toBe(400);
  });

  it('supplies: stats, momo-card and bank tabs, admin list; another user’s → 403', async () => {
    const stats = await get(users.a, `/api/supply/stats/${users.a.id}`);
    expect(stats.json()).toMatchObject({
      availableBalance: 40_000,
      lastSupplyAmount: 50_000,
      supplies: 1,
    });
    expect((await get(users.g, `/api/supply/stats/${users.a.id}`)).statusCode).toBe(403);
    const momo = (await get(users.a, `/api/supply/momo-card/${users.a.id}`)).json();
    expect(momo.data).toMatchObject([
      { reference: 'SUP-A', paymentMethod: 'MOBILE_MONEY', status: 'SUCCESS', amount: 50_000 },
    ]);
    const bank = (await get(users.a, `/api/supply/bank/${users.a.id}`)).json();
    expect(bank.data).toMatchObject([{ reference: 'SUP-BANK', status: 'INIT', bank: 'BOA' }]);
    expect((await get(users.g, `/api/supply/bank/${users.a.id}`)).statusCode).toBe(403);
    expect((await get(users.a, `/api/supply/other/${users.a.id}`)).statusCode).toBe(400);
    expect((await get(users.a, '/api/supply?type=BANK')).statusCode).toBe(403);
    const list = (await get(users.superAdmin, '/api/supply?type=BANK&status=INIT')).json();
    expect(list.count).toBe(1);
    expect(list.data[0]).toMatchObject({ reference: 'SUP-BANK', user: { id: users.a.id } });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect((await get(users.superAdmin, `/api/supply?from=${tomorrow}`)).json().count).toBe(0);
  });

  it('GET financement/user/{id}: given and received, with the other aggregator', async () => {
    const given = (await get(users.a, `/api/financement/user/${users.a.id}`)).json();
    expect(given).toMatchObject({
      count: 1,
      data: [
        { reference: 'FIN-1', amount: 3_000, direction: 'SENT', aggregator: { id: users.b.id } },
      ],
    });
    const received = (await get(users.b, `/api/financement/user/${users.b.id}`)).json();
    expect(received.data[0]).toMatchObject({
      direction: 'RECEIVED',
      aggregator: { id: users.a.id },
    });
    expect((await get(users.g, `/api/financement/user/${users.a.id}`)).statusCode).toBe(403);
  });

  it('GET wallet/recipients: cluster members for users, everyone for admins, empty q → empty', async () => {
    expect((await get(users.g, '/api/wallet/recipients?q=')).json()).toEqual({
      data: [],
      count: 0,
    });
    const mine = (await get(users.g, `/api/wallet/recipients?q=${users.a.lastname}`)).json();
    expect(mine.data.map((u: { id: string }) => u.id)).toEqual([users.a.id]);
    expect((await get(users.g, `/api/wallet/recipients?q=${users.b.lastname}`)).json().count).toBe(
      0,
    );
    const all = (await get(users.admin, `/api/wallet/recipients?q=${users.b.lastname}`)).json();
    expect(all.data).toMatchObject([{ id: users.b.id, walletId: users.b.walletId }]);
  });
});
