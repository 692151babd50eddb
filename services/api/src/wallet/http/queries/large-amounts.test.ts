import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { useTestDatabase } from '@filiere/platform/testing';
import { bearer, seedUser } from '../../../identity/test-support.js';
import { buildTestApp } from '../../../test-app.js';
import { WalletEvents } from './test-events.js';
import type { Database } from '../../../database.js';

const t = useTestDatabase<Database>();
let app: FastifyInstance;
let user: { id: string; walletId: string };
let admin: { id: string };

/** The largest amount the event schemas ever accepted (2^53 − 1, before the ceilings). */
const LEGACY_MAX = Number.MAX_SAFE_INTEGER;

/**
 * A ledger written before the amount ceilings: one wallet credited four times with 2^53 − 1
 * (a balance past 2^55). The reads answer 200 with numbers (the nearest ones past 2^53),
 * never a 500.
 */
beforeAll(async () => {
  app = await buildTestApp(t.db);
  const seeded = await seedUser(t.db, 'ROLE_INDUSTRIAL');
  const row = await t.db
    .selectFrom('users')
    .select('wallet_id')
    .where('id', '=', seeded.id)
    .executeTakeFirstOrThrow();
  user = { id: seeded.id, walletId: row.wallet_id as string };
  admin = await seedUser(t.db, 'ROLE_SUPER_ADMIN');
  const events = new WalletEvents(t.db).open(user.walletId, user.id);
  for (let i = 1; i <= 4; i++) {
    events.supply(user.walletId, user.id, `LEGACY-${i}`, LEGACY_MAX, 'BANK');
  }
  await events.commit();
});

afterAll(async () => {
  await app.close();
});

const get = (who: { id: string }, role: 'ROLE_INDUSTRIAL' | 'ROLE_SUPER_ADMIN', url: string) =>
  app.inject({ method: 'GET', url, headers: bearer(app, who, role) });

describe('wallet reads past 2^53', () => {
  it('GET wallet/stats answers 200 with the balance', async () => {
    const res = await get(user, 'ROLE_INDUSTRIAL', '/api/wallet/stats');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      balance: LEGACY_MAX * 4,
      availableBalance: LEGACY_MAX * 4,
      lastTransactionAmout: LEGACY_MAX,
    });
  });

  it('GET supply/stats answers 200 with the available balance', async () => {
    const res = await get(user, 'ROLE_INDUSTRIAL', `/api/supply/stats/${user.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ availableBalance: LEGACY_MAX * 4, supplies: 4 });
  });

  it('GET transaction/stats answers 200 with the totals, for the owner and an admin', async () => {
    for (const [who, role] of [
      [user, 'ROLE_INDUSTRIAL'],
      [admin, 'ROLE_SUPER_ADMIN'],
    ] as const) {
      const res = await get(who, role, '/api/transaction/stats');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ countSupplies: 4, totalSupplies: LEGACY_MAX * 4 });
    }
  });
});
