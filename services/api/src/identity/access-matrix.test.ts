import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { ROLE_CODES, type RoleCode } from '../http/auth.js';
import { buildTestApp } from '../test-app.js';
import { ROUTE_ROLES } from './permissions.js';
import { seedCluster, seedOrganization, seedUser, TEST_PASSWORD } from './test-support.js';
import type { Database } from '../database.js';

/**
 * The role × route matrix: every identity route, called by every role and
 * without a token. One row per route: who may call it and what they get.
 */
interface Row {
  route: string;
  /** Roles allowed; 'public' = no token needed; 'signed-in' = every role. */
  access: readonly RoleCode[] | 'public' | 'signed-in';
  status: number;
  request(env: Env, caller: Caller | undefined): Promise<Request> | Request;
}
interface Caller {
  id: string;
  email: string;
}
interface Request {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  payload?: Record<string, unknown>;
}
interface Env {
  clusterId: string;
  victim(): Promise<string>;
  unique(): string;
}

const everyone = 'signed-in' as const;
/** Who reaches a grower of the cluster (the victim): aggregators and SFDs reach their staff only. */
const growerManagers: readonly RoleCode[] = [
  'ROLE_SUPER_ADMIN',
  'ROLE_ADMIN',
  'ROLE_CLUSTER_MANAGER',
];
const rows: Row[] = [
  {
    route: 'POST /auth/login',
    access: 'public',
    status: 401,
    request: (env) => ({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: `${env.unique()}@x.bj`, password: 'Wrong#Pass1' },
    }),
  },
  {
    route: 'POST /users/invitation/signup?typeUser=industrial',
    access: 'public',
    status: 201,
    request: (env) => ({
      method: 'POST',
      url: '/api/users/invitation/signup?typeUser=industrial',
      payload: {
        firstname: 'Awa',
        lastname: 'Dossou',
        email: `${env.unique()}@x.bj`,
        phone: '0197000000',
        ifu: '1234567890123',
        denomination: 'Ananas SARL',
      },
    }),
  },
  {
    route: 'POST /users/invitation/signup?typeUser=user',
    // A grower: not a role an aggregator or an SFD gives (staff roles only).
    access: growerManagers,
    status: 201,
    request: (env) => ({
      method: 'POST',
      url: '/api/users/invitation/signup?typeUser=user',
      payload: {
        firstname: 'Koffi',
        lastname: 'Agossou',
        email: `${env.unique()}@x.bj`,
        phone: '97000001',
        roleCode: 'ROLE_GROWER',
        clusterId: env.clusterId,
      },
    }),
  },
  {
    route: 'POST /users/invitation/resend',
    access: 'public',
    status: 200,
    request: (env) => ({
      method: 'POST',
      url: '/api/users/invitation/resend',
      payload: { email: `${env.unique()}@x.bj` },
    }),
  },
  {
    route: 'POST /users/validation/signup (unknown token)',
    access: 'public',
    status: 403,
    request: (env) => ({
      method: 'POST',
      url: '/api/users/validation/signup',
      payload: {
        token: 'nope',
        email: `${env.unique()}@x.bj`,
        password: 'Good#Pass1',
        confirmPassword: 'Good#Pass1',
      },
    }),
  },
  {
    route: 'POST /users/link/check',
    access: 'public',
    status: 200,
    request: (env) => ({
      method: 'POST',
      url: '/api/users/link/check',
      payload: { token: 'nope', email: `${env.unique()}@x.bj`, type: 'RESET' },
    }),
  },
  {
    route: 'POST /users/forgot-password/{email}',
    access: 'public',
    status: 200,
    request: (env) => ({ method: 'POST', url: `/api/users/forgot-password/${env.unique()}@x.bj` }),
  },
  {
    route: 'POST /users/reset-password (unknown token)',
    access: 'public',
    status: 403,
    request: (env) => ({
      method: 'POST',
      url: '/api/users/reset-password',
      payload: {
        token: 'nope',
        email: `${env.unique()}@x.bj`,
        password: 'Good#Pass1',
        confirmPassword: 'Good#Pass1',
      },
    }),
  },
  {
    route: 'GET /role',
    access: everyone,
    status: 200,
    request: () => ({ method: 'GET', url: '/api/role' }),
  },
  {
    route: 'GET /users/me',
    access: everyone,
    status: 200,
    request: () => ({ method: 'GET', url: '/api/users/me' }),
  },
  {
    route: 'PATCH /users/me/firstname',
    access: everyone,
    status: 200,
    request: () => ({
      method: 'PATCH',
      url: '/api/users/me/firstname',
      payload: { firstname: 'Nouveau' },
    }),
  },
  {
    route: 'PATCH /users/me/lastname',
    access: everyone,
    status: 200,
    request: () => ({
      method: 'PATCH',
      url: '/api/users/me/lastname',
      payload: { lastname: 'Nom' },
    }),
  },
  {
    route: 'PATCH /users/me/email',
    access: everyone,
    status: 200,
    request: (_env, caller) => ({
      method: 'PATCH',
      url: '/api/users/me/email',
      payload: { email: caller?.email ?? 'anon@x.bj', currentPassword: TEST_PASSWORD },
    }),
  },
  {
    route: 'PATCH /users/me/phone',
    access: everyone,
    status: 200,
    request: () => ({
      method: 'PATCH',
      url: '/api/users/me/phone',
      payload: { phone: '0166000000', currentPassword: TEST_PASSWORD },
    }),
  },
  {
    route: 'PATCH /users/me/momoAccountNumber',
    access: everyone,
    status: 200,
    request: () => ({
      method: 'PATCH',
      url: '/api/users/me/momoAccountNumber',
      payload: { momoAccountNumber: '0166111111', currentPassword: TEST_PASSWORD },
    }),
  },
  {
    route: 'PATCH /users/me/bankAccountNumber',
    access: everyone,
    status: 200,
    request: () => ({
      method: 'PATCH',
      url: '/api/users/me/bankAccountNumber',
      payload: { bankAccountNumber: 'BJ0061010100', currentPassword: TEST_PASSWORD },
    }),
  },
  {
    route: 'POST /users/me/password',
    access: everyone,
    status: 200,
    request: () => ({
      method: 'POST',
      url: '/api/users/me/password',
      payload: {
        oldPassword: TEST_PASSWORD,
        newPassword: TEST_PASSWORD,
        confirmPassword: TEST_PASSWORD,
      },
    }),
  },
  {
    route: 'GET /users',
    access: ROUTE_ROLES.listUsers,
    status: 200,
    request: () => ({ method: 'GET', url: '/api/users?page=1&limit=10&q=&roles=ROLE_GROWER' }),
  },
  {
    route: 'GET /users/count-inactives',
    access: ROUTE_ROLES.countInactives,
    status: 200,
    request: () => ({ method: 'GET', url: '/api/users/count-inactives' }),
  },
  {
    route: 'GET /users/industrials',
    access: ROUTE_ROLES.industrials,
    status: 200,
    request: () => ({ method: 'GET', url: '/api/users/industrials?q=a' }),
  },
  {
    route: 'GET /users/cluster/{clusterId}',
    access: ROUTE_ROLES.clusterUsers,
    status: 200,
    request: (env) => ({ method: 'GET', url: `/api/users/cluster/${env.clusterId}` }),
  },
  {
    route: 'GET /users/activate-account/{id}',
    access: growerManagers,
    status: 200,
    request: async (env) => ({
      method: 'GET',
      url: `/api/users/activate-account/${await env.victim()}`,
    }),
  },
  {
    route: 'GET /users/{id} (a grower of the cluster)',
    access: ['ROLE_SUPER_ADMIN', 'ROLE_ADMIN', 'ROLE_CLUSTER_MANAGER'],
    status: 200,
    request: async (env) => ({ method: 'GET', url: `/api/users/${await env.victim()}` }),
  },
  {
    // Every user PATCHes itself; on another user (the victim grower), its managers only.
    route: 'PATCH /users/{id}',
    access: growerManagers,
    status: 200,
    request: async (env) => ({
      method: 'PATCH',
      url: `/api/users/${await env.victim()}`,
      // Names only: which role changes which other field is the generated field matrix
      // of security/access-matrix.test.ts.
      payload: { firstname: 'Changé', lastname: 'Aussi' },
    }),
  },
  {
    route: 'GET /users/{id}/audit',
    access: ROUTE_ROLES.audit,
    status: 200,
    request: async (env) => ({ method: 'GET', url: `/api/users/${await env.victim()}/audit` }),
  },
  {
    route: 'DELETE /users/{id}',
    access: growerManagers,
    status: 204,
    request: async (env) => ({ method: 'DELETE', url: `/api/users/${await env.victim()}` }),
  },
  {
    // The victim is a grower of the cluster manager's cluster (members-routes.test.ts probes
    // the other clusters, the roles and the targets that are not growers).
    route: 'GET /users/{id}/reset-pin',
    access: ROUTE_ROLES.resetPin,
    status: 200,
    request: async (env) => ({ method: 'GET', url: `/api/users/${await env.victim()}/reset-pin` }),
  },
  {
    route: 'GET /clusters',
    access: ROUTE_ROLES.referenceLists,
    status: 200,
    request: () => ({ method: 'GET', url: '/api/clusters' }),
  },
  {
    route: 'GET /organizations',
    access: ROUTE_ROLES.referenceLists,
    status: 200,
    request: () => ({ method: 'GET', url: '/api/organizations' }),
  },
];

function expected(row: Row, role: RoleCode | undefined): number {
  if (row.access === 'public') return row.status;
  if (!role) return 401;
  if (row.access === 'signed-in' || row.access.includes(role)) return row.status;
  return 403;
}

describe('identity role × route matrix', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let env: Env;
  const callers = new Map<RoleCode, Caller>();
  let n = 0;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    const clusterId = await seedCluster(testDb.db, 'Cluster Matrice');
    // The aggregator and the SFD list their organisation's staff: they need an organisation.
    const organizationId = await seedOrganization(testDb.db, 'Matrice Export SA');
    for (const role of ROLE_CODES) {
      const withOrganization = role === 'ROLE_INDUSTRIAL' || role === 'ROLE_SFD';
      callers.set(
        role,
        await seedUser(testDb.db, role, {
          clusterId,
          organizationId: withOrganization ? organizationId : null,
        }),
      );
    }
    env = {
      clusterId,
      victim: async () => (await seedUser(testDb.db, 'ROLE_GROWER', { clusterId })).id,
      unique: () => `m${++n}.${Date.now()}`,
    };
  });
  afterAll(async () => app?.close());

  const tokenVersion = async (id: string) =>
    (
      await testDb.db
        .selectFrom('users')
        .select('token_version')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).token_version as number;

  it('covers every identity route of the OpenAPI document', async () => {
    const doc = (await app.inject({ url: '/api/docs/json' })).json();
    // Identity's routes are those of its tags (other contexts' paths may also name users or
    // clusters: the actors' /organization/{id}/users, /clusters/config/{userId}, …, covered by
    // their own tests and by security/access-matrix.test.ts).
    const identityTags = new Set(['identity', 'users', 'profile']);
    const documented = Object.entries(
      doc.paths as Record<string, Record<string, { tags?: string[] }>>,
    )
      .flatMap(([path, ops]) =>
        Object.entries(ops)
          .filter(([, op]) => (op.tags ?? []).some((tag) => identityTags.has(tag)))
          .map(([m]) => `${m.toUpperCase()} ${path.slice(4)}`),
      )
      .filter((route) => !/\/(health|ready)$/.test(route) && !route.includes('/wallet'))
      .filter((route) => /\/(auth|users|role|clusters|organizations)/.test(route));
    expect(documented).toContain('POST /auth/login');
    const covered = new Set(rows.map((r) => r.route.split(/[ ?]/).slice(0, 2).join(' ')));
    expect(documented.filter((route) => !covered.has(route))).toEqual([]);
  });

  for (const row of rows) {
    it(`${row.route}: ${Array.isArray(row.access) ? row.access.join(', ') : row.access}`, async () => {
      const outcome: Record<string, number> = {};
      const wanted: Record<string, number> = {};
      for (const role of [undefined, ...ROLE_CODES]) {
        const caller = role ? callers.get(role) : undefined;
        const request = await row.request(env, caller);
        const response = await app.inject({
          ...request,
          remoteAddress: `10.1.${Math.floor(n / 250)}.${(n++ % 250) + 1}`,
          // The password row revokes the callers' tokens: sign with their current version.
          headers: caller
            ? {
                authorization: `Bearer ${app.jwt.sign({ sub: caller.id, role: role!, tv: await tokenVersion(caller.id) })}`,
              }
            : {},
        });
        outcome[role ?? 'anonymous'] = response.statusCode;
        wanted[role ?? 'anonymous'] = expected(row, role);
      }
      expect(outcome).toEqual(wanted);
    });
  }
});
