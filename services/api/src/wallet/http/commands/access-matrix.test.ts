import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { ROLE_CODES, type RoleCode } from '../../../http/auth.js';
import { seedCluster } from '../../../identity/test-support.js';
import { buildTestApp } from '../../../test-app.js';
import { walletUser, withKey, type TestUser } from './test-support.js';
import type { Database } from '../../../database.js';

type Request = (
  me: TestUser,
  peer: TestUser,
) => { method: 'GET' | 'POST'; url: string; payload?: object };

/** Every role moves money from its own wallet but the read-only auditor. */
const MOVES_MONEY = ROLE_CODES.filter((role) => role !== 'ROLE_ACCOUNTING');

/** Role × command route: anonymous 401; roles outside the route's list 403; others pass auth. */
const ROUTES: { name: string; roles: readonly RoleCode[] | 'all'; request: Request }[] = [
  {
    name: 'POST /wallet/make-transfer',
    roles: MOVES_MONEY,
    request: (me, peer) => ({
      method: 'POST',
      url: '/api/wallet/make-transfer',
      payload: { source: me.walletId, destination: peer.walletId, amount: 1, reason: 'x' },
    }),
  },
  {
    name: 'POST /wallet/make-debit/{id}',
    roles: MOVES_MONEY,
    request: (me) => ({
      method: 'POST',
      url: `/api/wallet/make-debit/${me.id}`,
      payload: { paiementMethod: 'MOBILE_MONEY', amount: 1 },
    }),
  },
  {
    name: 'POST /supply',
    roles: ['ROLE_SUPER_ADMIN', 'ROLE_ADMIN', 'ROLE_INDUSTRIAL'],
    request: (me) => ({
      method: 'POST',
      url: '/api/supply',
      payload: { amount: 1, walletId: me.walletId, accountType: 'MOBILE_MONEY' },
    }),
  },
  {
    name: 'GET /supply/verify/{transactionId}',
    roles: ['ROLE_SUPER_ADMIN', 'ROLE_ADMIN', 'ROLE_INDUSTRIAL'],
    request: () => ({ method: 'GET', url: '/api/supply/verify/sbx_none' }),
  },
  {
    name: 'GET /supply/validate-bank-supply/{id}',
    roles: ['ROLE_SUPER_ADMIN'],
    request: () => ({ method: 'GET', url: '/api/supply/validate-bank-supply/APP-NONE' }),
  },
  {
    name: 'POST /supply/validate-bank-supply',
    roles: ['ROLE_SUPER_ADMIN'],
    request: () => ({
      method: 'POST',
      url: '/api/supply/validate-bank-supply',
      payload: { reference: 'APP-NONE' },
    }),
  },
  {
    name: 'GET /supply/widget/{reference}',
    roles: ['ROLE_SUPER_ADMIN', 'ROLE_ADMIN', 'ROLE_INDUSTRIAL'],
    request: () => ({ method: 'GET', url: '/api/supply/widget/APP-NONE' }),
  },
  {
    name: 'POST /supply/cancel/{reference}',
    roles: ['ROLE_SUPER_ADMIN', 'ROLE_ADMIN', 'ROLE_INDUSTRIAL'],
    request: () => ({ method: 'POST', url: '/api/supply/cancel/APP-NONE' }),
  },
  {
    name: 'POST /supply/reject-bank-supply',
    roles: ['ROLE_SUPER_ADMIN'],
    request: () => ({
      method: 'POST',
      url: '/api/supply/reject-bank-supply',
      payload: { reference: 'APP-NONE', reason: 'x' },
    }),
  },
  {
    name: 'POST /financement',
    roles: ['ROLE_INDUSTRIAL'],
    request: (_me, peer) => ({
      method: 'POST',
      url: '/api/financement',
      payload: { aggregatorId: peer.id, amount: 1 },
    }),
  },
];

describe('wallet command routes: role × route', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  const users = new Map<RoleCode, TestUser>();
  let peer: TestUser;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    const cluster = await seedCluster(testDb.db, 'Cluster matrice');
    for (const role of ROLE_CODES) {
      users.set(role, await walletUser(app, testDb.db, role, { clusterId: cluster }));
    }
    peer = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { clusterId: cluster });
  });
  afterAll(async () => {
    await app.close();
  });

  for (const route of ROUTES) {
    it(`${route.name}: ${route.roles === 'all' ? 'every role' : route.roles.join(', ')}`, async () => {
      // A well-formed request (money commands require an Idempotency-Key) without a token.
      const anonymous = await app.inject({
        ...route.request(peer, peer),
        headers: { 'idempotency-key': 'anonymous' },
      });
      expect(anonymous.statusCode).toBe(401);
      for (const role of ROLE_CODES) {
        const me = users.get(role)!;
        const res = await app.inject({ ...route.request(me, peer), headers: withKey(me) });
        const allowed = route.roles === 'all' || route.roles.includes(role);
        if (allowed) expect([401, 403], `${role}: ${res.body}`).not.toContain(res.statusCode);
        else expect(res.statusCode, role).toBe(403);
        expect(res.statusCode, `${role}: ${res.body}`).toBeLessThan(500);
      }
    });
  }
});
