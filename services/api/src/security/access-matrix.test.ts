import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { ROLE_CODES, type RouteAccess, type RoleCode } from '../http/auth.js';
import { seedUser } from '../identity/test-support.js';
import { buildTestApp } from '../test-app.js';
import { operationsOf, type Operation } from './route-table.js';
import { sampleRequest } from './sample-request.js';
import { seedWorld, type World } from './world.js';

/**
 * Routes open to everyone by design. A new route without a guard of http/auth.ts fails
 * the first test until it is added here (or given a guard).
 */
const PUBLIC = new Set([
  'GET /api/health',
  'GET /api/ready',
  'POST /api/auth/login',
  'POST /api/users/invitation/signup',
  'POST /api/users/invitation/resend',
  'POST /api/users/validation/signup',
  'POST /api/users/forgot-password/{email}',
  'POST /api/users/reset-password',
  'GET /api/sandbox/pay/{reference}',
  'POST /api/sandbox/pay/{reference}',
]);

/** Routes guarded by their own code rather than the guards of http/auth.ts. */
const OWN_GUARDS: Record<string, RouteAccess> = {
  // Bearer METRICS_TOKEN, or an admin's JWT (realtime/metrics.ts).
  'GET /api/metrics': ['ROLE_SUPER_ADMIN', 'ROLE_ADMIN'],
};

const accessOf = (op: Operation): RouteAccess => OWN_GUARDS[op.name] ?? op.access;

/** What `role` (undefined: no token) must get from a well-formed request about its own data. */
function expected(access: RouteAccess, role: RoleCode | undefined): 'pass' | 401 | 403 {
  if (access === 'public') return 'pass';
  if (!role) return 401;
  if (access === 'signed-in' || access.includes(role)) return 'pass';
  return 403;
}

describe('authorization matrix: every route of the route table × every role and no token', () => {
  const testDb = useTestDatabase();
  let app: FastifyInstance;
  let world: World;
  let operations: Operation[];

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
    world = await seedWorld(app, testDb.db);
    operations = operationsOf(app).filter((op) => op.path !== '/api/ws');
  });
  afterAll(async () => app?.close());

  it('every documented route declares its access; the unguarded ones are the public list', () => {
    const undeclared = operationsOf(app)
      .filter((op) => op.access === 'public' && op.path !== '/api/ws')
      .map((op) => op.name)
      .filter((name) => !PUBLIC.has(name) && !(name in OWN_GUARDS));
    expect(undeclared).toEqual([]);
    for (const name of PUBLIC) expect(operations.map((op) => op.name)).toContain(name);
  });

  it('answers each role as the route declares (0 leaks)', async () => {
    const wrong: string[] = [];
    for (const op of operations) {
      const access = accessOf(op);
      const statuses: number[] = [];
      for (const role of [undefined, ...ROLE_CODES]) {
        const caller = role ? world.byRole.get(role) : undefined;
        const request = await sampleRequest(op, {
          caller,
          peer: world.byRole.get('ROLE_GROWER')!,
          clusterId: world.clusterId,
          victim: async () =>
            (await seedUser(testDb.db, 'ROLE_GROWER', { clusterId: world.clusterId })).id,
        });
        const res = await app.inject(request);
        statuses.push(res.statusCode);
        const want = expected(access, role);
        const who = role ?? 'anonymous';
        if (res.statusCode >= 500) wrong.push(`${op.name} ${who}: ${res.statusCode} ${res.body}`);
        else if (
          want === 'pass' &&
          access !== 'public' &&
          (res.statusCode === 401 || res.statusCode === 403)
        ) {
          wrong.push(`${op.name} ${who}: ${res.statusCode} although allowed (${res.body})`);
        } else if (want !== 'pass' && res.statusCode !== want) {
          wrong.push(`${op.name} ${who}: ${res.statusCode}, expected ${want}`);
        }
      }
      // A public route answers the same whoever calls (its 401/403 answer the body's credentials).
      if (access === 'public' && new Set(statuses).size > 1) {
        wrong.push(`${op.name}: public but answers ${statuses.join(',')} by role`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('internal creation of a user (typeUser=user) needs a token of a user manager', async () => {
    const payload = {
      firstname: 'Koffi',
      lastname: 'Agossou',
      phone: '97000001',
      roleCode: 'ROLE_GROWER',
      clusterId: world.clusterId,
    };
    const create = (role: RoleCode | undefined, email: string) =>
      app.inject({
        method: 'POST',
        url: '/api/users/invitation/signup?typeUser=user',
        headers: role ? world.byRole.get(role)!.headers : {},
        payload: { ...payload, email },
        remoteAddress: '10.8.0.1',
      });
    expect((await create(undefined, 'anon.user@securite.bj')).statusCode).toBe(401);
    expect((await create('ROLE_GROWER', 'grower.user@securite.bj')).statusCode).toBe(403);
    expect((await create('ROLE_CLUSTER_MANAGER', 'cm.user@securite.bj')).statusCode).toBe(201);
  });
});
