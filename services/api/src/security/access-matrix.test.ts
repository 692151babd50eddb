import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { ROLE_CODES, type RouteAccess, type RoleCode } from '../http/auth.js';
import { userStreamId } from '../identity/catalogue.js';
import {
  mayChange,
  mayCreate,
  organizationOfNewUser,
  USER_FIELDS,
  type FieldChange,
  type UserField,
} from '../identity/field-rules.js';
import { roleIdOf } from '../identity/roles.js';
import { STAFF_ROLES } from '../identity/permissions.js';
import { seedOrganization, seedUser, TEST_PASSWORD } from '../identity/test-support.js';
import { buildTestApp } from '../test-app.js';
import { allowedBy, fillPath, operationsOf, queryString, type Operation } from './route-table.js';
import { sampleRequest } from './sample-request.js';
import { seedWorld, type Actor, type World } from './world.js';
import type { Database } from '../database.js';

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
  'POST /api/users/link/check',
  'POST /api/users/forgot-password/{email}',
  'POST /api/users/reset-password',
  'GET /api/sandbox/pay/{reference}',
  'POST /api/sandbox/pay/{reference}',
  'GET /api/contracts/pdf/{token}',
  'GET /api/verifier/{reference}',
]);

/** Routes guarded by their own code rather than the guards of http/auth.ts. */
const OWN_GUARDS: Record<string, RouteAccess> = {
  // Bearer METRICS_TOKEN, or an admin's JWT (realtime/metrics.ts).
  'GET /api/metrics': ['ROLE_SUPER_ADMIN', 'ROLE_ADMIN'],
};

const accessOf = (op: Operation): RouteAccess => OWN_GUARDS[op.name] ?? op.access;

/** What `role` (undefined: no token) must get from a well-formed request about its own data. */
function expected(access: RouteAccess, role: RoleCode | undefined): 'pass' | 401 | 403 {
  if (allowedBy(access, role)) return 'pass';
  return role ? 403 : 401;
}

describe('authorization matrix: every route of the route table × every role and no token', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let world: World;
  let operations: Operation[];
  /** The organisation of the aggregator and of the SFD, whose staff they manage. */
  const organizationOf = new Map<RoleCode, string>();

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
    world = await seedWorld(app, testDb.db);
    operations = operationsOf(app).filter((op) => op.path !== '/api/ws');
    for (const role of ['ROLE_INDUSTRIAL', 'ROLE_SFD', 'ROLE_FARMER_ORGANIZATION'] as const) {
      // A cooperative's representative belongs to its cooperative (its reach over growers).
      const type = role === 'ROLE_FARMER_ORGANIZATION' ? 'COOPERATIVE' : 'INDUSTRIAL';
      const id = await seedOrganization(testDb.db, `Organisation ${role}`, type);
      organizationOf.set(role, id);
      await testDb.db
        .updateTable('users')
        .set({ organization_id: id })
        .where('id', '=', world.byRole.get(role)!.id)
        .execute();
    }
  });

  /** A new user `role` manages: its organisation's secretary (aggregator, SFD), else a grower. */
  async function victimOf(role: RoleCode | undefined): Promise<string> {
    const organizationId = role ? organizationOf.get(role) : undefined;
    const { id } = organizationId
      ? await seedUser(testDb.db, 'ROLE_SECRETARY', { clusterId: world.clusterId, organizationId })
      : await seedUser(testDb.db, 'ROLE_GROWER', { clusterId: world.clusterId });
    return id;
  }
  afterAll(async () => app?.close());

  /**
   * Re-signs the actor's token with its current token version: a sample request that changes
   * its password (POST /users/me/password) revokes the tokens it had.
   */
  async function refresh(actor: Actor | undefined): Promise<void> {
    if (!actor) return;
    const row = await testDb.db
      .selectFrom('users')
      .select('token_version')
      .where('id', '=', actor.id)
      .executeTakeFirstOrThrow();
    const token = app.jwt.sign({ sub: actor.id, role: actor.role, tv: row.token_version });
    actor.headers.authorization = `Bearer ${token}`;
  }

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
        await refresh(caller);
        const request = await sampleRequest(op, {
          caller,
          peer: world.byRole.get('ROLE_GROWER')!,
          clusterId: world.clusterId,
          victim: () => victimOf(role),
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

  /**
   * An anonymous caller learns nothing about its input: every guarded route authenticates
   * before it parses or validates (a guard at `onRequest`, not only `preHandler`), so a
   * malformed request without a token is a 401, never a 400 that names the bad field (nor a
   * 413/415 about the body).
   */
  it('an anonymous request with malformed input gets 401, never 400 (auth before validation)', async () => {
    const wrong: string[] = [];
    for (const op of operations) {
      if (accessOf(op) === 'public' || op.name in OWN_GUARDS) continue;
      const path = Object.fromEntries(op.pathParams.map((p) => [p.name, 'x\u0000']));
      const query = Object.fromEntries(op.query.map((p) => [p.name, 'x\u0000']));
      const res = await app.inject({
        method: op.method,
        url: `${fillPath(op.path, path)}${queryString({ ...query, inconnu: 'x\u0000' })}`,
        ...(op.method === 'GET' || op.method === 'DELETE'
          ? {}
          : { headers: { 'content-type': 'application/json' }, payload: '[{"x":' }),
      });
      if (res.statusCode !== 401)
        wrong.push(`${op.name}: ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('internal creation of a user (typeUser=user) needs a token of a user manager', async () => {
    const payload = {
      firstname: 'Koffi',
      lastname: 'Agossou',
      phone: '97000001',
      roleCode: 'ROLE_GROWER',
      clusterId: world.clusterId,
    };
    for (const actor of world.byRole.values()) await refresh(actor);
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

  /**
   * Internal creation (POST /users/invitation/signup?typeUser=user), generated from
   * identity/field-rules.ts: every role × every role it could give × without or with an
   * organisation (its own for an aggregator or an SFD). 201 exactly when `mayCreate` allows
   * it, else 403 and no account. The platform's
   * auditor (a Comptable without an organisation) is the super admin's to make.
   */
  it('POST /users/invitation/signup?typeUser=user: which role each role creates, with or without an organisation (generated from field-rules.ts)', async () => {
    const shared = await seedOrganization(testDb.db, 'Création SARL');
    const wrong: string[] = [];
    const table: Record<string, Record<string, string>> = {};
    let n = 0;
    for (const role of ROLE_CODES) {
      const caller = world.byRole.get(role)!;
      await refresh(caller);
      const own = organizationOf.get(role) ?? null;
      const party = { id: caller.id, role, clusterId: caller.clusterId, organizationId: own };
      for (const target of ROLE_CODES) {
        for (const organizationId of [null, own ?? shared]) {
          // The route is public (self-registration): typeUser=user asks for a signed-in
          // caller, and `mayCreate` refuses whoever manages no user (notManager).
          const want = mayCreate(party, target, null, organizationId).allowed ? 201 : 403;
          const email = `creation.${++n}.${Date.now()}@securite.bj`;
          const res = await app.inject({
            method: 'POST',
            url: '/api/users/invitation/signup?typeUser=user',
            headers: caller.headers,
            remoteAddress: `10.10.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`,
            payload: {
              firstname: 'Koffi',
              lastname: 'Agossou',
              email,
              phone: `0196${String(n).padStart(6, '0')}`,
              roleCode: target,
              ...(organizationId ? { organizationId } : {}),
            },
          });
          const cell = `${target}, ${organizationId ? 'an organisation' : 'no organisation'}`;
          (table[role] ??= {})[cell] = String(res.statusCode);
          if (res.statusCode !== want) {
            wrong.push(
              `${role} creates ${cell}: ${res.statusCode}, expected ${want} (${res.body.slice(0, 200)})`,
            );
            continue;
          }
          const row = await testDb.db
            .selectFrom('users')
            .select('organization_id')
            .where('email', '=', email)
            .executeTakeFirst();
          if (want === 403 && row) wrong.push(`${role} creates ${cell}: refused but made`);
          const organization = organizationOfNewUser(party, organizationId);
          if (want === 201 && row?.organization_id !== organization) {
            wrong.push(
              `${role} creates ${cell}: organisation ${row?.organization_id}, expected ${organization}`,
            );
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    // The platform's auditor: the super admin's only. An accountant made by anybody else
    // belongs to an organisation (the aggregator's and the SFD's, their own).
    expect(table.ROLE_SUPER_ADMIN!['ROLE_ACCOUNTING, no organisation']).toBe('201');
    for (const role of ['ROLE_ADMIN', 'ROLE_CLUSTER_MANAGER'] as const) {
      expect(table[role]!['ROLE_ACCOUNTING, no organisation']).toBe('403');
      expect(table[role]!['ROLE_ACCOUNTING, an organisation']).toBe('201');
    }
    for (const role of ['ROLE_INDUSTRIAL', 'ROLE_SFD'] as const) {
      expect(table[role]!['ROLE_ACCOUNTING, no organisation']).toBe('201');
    }
  }, 300_000);

  /**
   * The field-level rules of PATCH /users/{id} (and the activation toggle), generated from
   * identity/field-rules.ts: for every role, every field of a user, and four targets (a
   * grower of the caller's cluster, one of another cluster, a secretary of the caller's
   * organisation — of another cluster, so only an aggregator's or SFD's reach holds it — and
   * the caller itself), the answer is 200 exactly when the route's guard lets the role in AND
   * `mayChange` allows the change; else 403 with nothing written. An accepted change leaves
   * its audit event.
   */
  it('PATCH /users/{id}: which field each role may change on whom (generated from field-rules.ts)', async () => {
    const organization = await testDb.db
      .insertInto('organizations')
      .values({ denomination: 'Matrice SARL', organization_type: 'COOPERATIVE' })
      .returning('id')
      .executeTakeFirstOrThrow();
    /** Staff of the callers without an organisation belong to this one. */
    const staffOrganization = await seedOrganization(testDb.db, 'Personnel SARL');
    let n = 0;
    type Target = {
      id: string;
      role: RoleCode;
      clusterId: string | null;
      organizationId: string | null;
    };
    /** One request per field (password: only on /users/me/password, its own route). */
    const CHANGES: Record<
      Exclude<UserField, 'password'>,
      (
        target: Target,
        caller: Actor,
      ) => { change: FieldChange; body?: Record<string, unknown>; event: string }[]
    > = {
      firstname: () => [
        { change: { field: 'firstname' }, body: { firstname: `Nom${++n}` }, event: '' },
      ],
      lastname: () => [
        { change: { field: 'lastname' }, body: { lastname: `Nom${++n}` }, event: '' },
      ],
      organization: (target) => {
        const to = target.organizationId === organization.id ? staffOrganization : organization.id;
        return [{ change: { field: 'organization', to }, body: { organizationId: to }, event: '' }];
      },
      email: () => [
        {
          change: { field: 'email' },
          body: { email: `matrice.${++n}.${Date.now()}@securite.bj` },
          event: 'UserEmailChanged',
        },
      ],
      phone: () => [
        {
          change: { field: 'phone' },
          body: { phone: '0166554433' },
          event: 'UserPayoutAccountChanged',
        },
      ],
      momoAccountNumber: () => [
        {
          change: { field: 'momoAccountNumber' },
          body: { momoAccountNumber: '0166554433' },
          event: 'UserPayoutAccountChanged',
        },
      ],
      bankAccountNumber: () => [
        {
          change: { field: 'bankAccountNumber' },
          body: { bankAccountNumber: 'BJ0099887766' },
          event: 'UserPayoutAccountChanged',
        },
      ],
      role: (target, caller) =>
        (['ROLE_CARRIER', 'ROLE_ACCOUNTING', caller.role] as RoleCode[])
          .filter((to) => to !== target.role)
          .map((to) => ({
            change: { field: 'role', to },
            body: { roleId: ROLE_IDS[to] },
            event: 'UserRoleChanged',
          })),
      cluster: (target) => {
        const to = target.clusterId === world.clusterId ? world.otherClusterId : world.clusterId;
        return [
          {
            change: { field: 'cluster', to },
            body: { clusterId: to },
            event: 'UserClusterChanged',
          },
        ];
      },
      // The activation toggle is its own route; the field is the same rule.
      active: () => [{ change: { field: 'active' }, event: 'UserDeactivated' }],
    };
    expect(Object.keys(CHANGES).sort()).toEqual(USER_FIELDS.filter((f) => f !== 'password').sort());

    const patch = operations.find((op) => op.name === 'PATCH /api/users/{id}')!;
    const toggle = operations.find((op) => op.name === 'GET /api/users/activate-account/{id}')!;
    const wrong: string[] = [];
    const table: Record<string, Record<string, string>> = {};
    for (const role of ROLE_CODES) {
      const caller = world.byRole.get(role)!;
      const callerOrganization = organizationOf.get(role) ?? null;
      const party = {
        id: caller.id,
        role,
        clusterId: caller.clusterId,
        organizationId: callerOrganization,
      };
      for (const kind of ['in reach', 'other cluster', 'organisation staff', 'self'] as const) {
        for (const [field, build] of Object.entries(CHANGES)) {
          const fresh = async (): Promise<Target> => {
            if (kind === 'self') {
              return {
                id: caller.id,
                role,
                clusterId: caller.clusterId,
                organizationId: callerOrganization,
              };
            }
            if (kind === 'organisation staff') {
              const target = {
                role: STAFF_ROLES[0]!,
                clusterId: world.otherClusterId,
                organizationId: callerOrganization ?? staffOrganization,
              };
              const { id } = await seedUser(testDb.db, target.role, target);
              return { id, ...target };
            }
            const clusterId = kind === 'in reach' ? world.clusterId : world.otherClusterId;
            const { id } = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId });
            return { id, role: 'ROLE_GROWER', clusterId, organizationId: null };
          };
          for (const probe of build(await fresh(), caller)) {
            const target = await fresh();
            const op = field === 'active' ? toggle : patch;
            const verdict = mayChange(party, target, probe.change);
            const want = allowedBy(op.access, role) && verdict.allowed ? 200 : 403;
            await refresh(caller);
            const head = await streamVersion(target.id);
            const res = await app.inject(
              field === 'active'
                ? {
                    method: 'GET',
                    url: `/api/users/activate-account/${target.id}`,
                    headers: caller.headers,
                  }
                : {
                    method: 'PATCH',
                    url: `/api/users/${target.id}`,
                    headers: caller.headers,
                    payload: {
                      ...probe.body,
                      ...(kind === 'self' ? { currentPassword: TEST_PASSWORD } : {}),
                    },
                    remoteAddress: `10.9.${Math.floor(n / 250) % 250}.${(n++ % 250) + 1}`,
                  },
            );
            // An organisation's id says nothing to the reader: its cell is the field's name.
            const change = probe.change;
            const to = change.field === 'role' || change.field === 'cluster' ? `→${change.to}` : '';
            const label = `${change.field}${to}`;
            (table[role] ??= {})[`${kind}: ${label}`] = String(res.statusCode);
            const who = `${role} on ${kind}, ${label}`;
            if (res.statusCode !== want) {
              wrong.push(`${who}: ${res.statusCode}, expected ${want} (${res.body.slice(0, 200)})`);
              continue;
            }
            const events = await streamEvents(target.id, head);
            if (want === 403 && events.length) wrong.push(`${who}: refused but appended ${events}`);
            if (want === 200 && probe.event && !events.includes(probe.event)) {
              wrong.push(`${who}: accepted without its ${probe.event} event (${events})`);
            }
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    // What the table says, for the reader of a failure: managers change other users' names,
    // organisation, role (below their own), cluster (admins) and state; nobody another's
    // e-mail, phone or payout accounts.
    for (const role of ['ROLE_ADMIN', 'ROLE_CLUSTER_MANAGER'] as const) {
      expect(table[role]!['in reach: email']).toBe('403');
      expect(table[role]!['in reach: momoAccountNumber']).toBe('403');
      expect(table[role]!['in reach: bankAccountNumber']).toBe('403');
      expect(table[role]!['in reach: active']).toBe('200');
    }
    // The aggregator and the SFD: their organisation's staff (names, staff roles, state), not
    // its e-mail or payout accounts, its cluster or organisation; nobody else.
    for (const role of ['ROLE_INDUSTRIAL', 'ROLE_SFD'] as const) {
      const row = table[role]!;
      expect(row['organisation staff: firstname']).toBe('200');
      expect(row['organisation staff: role→ROLE_ACCOUNTING']).toBe('200');
      expect(row['organisation staff: role→ROLE_CARRIER']).toBe('403');
      expect(row['organisation staff: active']).toBe('200');
      expect(row['organisation staff: email']).toBe('403');
      const cluster = Object.keys(row).find((k) => k.startsWith('organisation staff: cluster'));
      expect(row[cluster!]).toBe('403');
      expect(row['organisation staff: organization']).toBe('403');
      expect(row['in reach: firstname']).toBe('403');
      expect(row['self: organization']).toBe('403');
    }
    // The platform's auditor (a Comptable without an organisation) is the super admin's to
    // make: the grower in reach has no organisation.
    expect(table.ROLE_SUPER_ADMIN!['in reach: role→ROLE_ACCOUNTING']).toBe('200');
    expect(table.ROLE_ADMIN!['in reach: role→ROLE_ACCOUNTING']).toBe('403');
    expect(table.ROLE_CLUSTER_MANAGER!['in reach: role→ROLE_ACCOUNTING']).toBe('403');
    // A cluster manager does not reach a secretary outside its cluster.
    expect(table.ROLE_CLUSTER_MANAGER!['organisation staff: firstname']).toBe('403');
  }, 300_000);

  const ROLE_IDS = Object.fromEntries(ROLE_CODES.map((code) => [code, roleIdOf(code)])) as Record<
    RoleCode,
    number
  >;

  async function streamVersion(userId: string): Promise<number> {
    const row = await testDb.db
      .selectFrom('events')
      .select((eb) => eb.fn.max('version').as('v'))
      .where('stream_id', '=', userStreamId(userId))
      .executeTakeFirst();
    return Number(row?.v ?? 0);
  }

  async function streamEvents(userId: string, after: number): Promise<string[]> {
    const rows = await testDb.db
      .selectFrom('events')
      .select('type')
      .where('stream_id', '=', userStreamId(userId))
      .where('version', '>', after)
      .orderBy('version')
      .execute();
    return rows.map((r) => r.type as string);
  }
});
