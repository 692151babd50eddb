import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import type { RoleCode } from '../http/auth.js';
import { buildTestApp } from '../test-app.js';
import { seedCluster, seedOrganization, seedUser, TEST_PASSWORD } from './test-support.js';
import type { Database } from '../database.js';

/**
 * Every change of e-mail, payout account, role, cluster, active state, password or deletion
 * is an event of the user's `user-<id>` stream, with who and when; GET /api/users/{id}/audit
 * reads them back for super admins, admins and accountants.
 */
describe('identity audit trail', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let clusterA: string;
  let clusterB: string;
  const people: Record<string, { id: string; email: string; headers: Record<string, string> }> = {};
  let ip = 0;

  const bearer = (id: string, role: RoleCode, tv = 0) => ({
    authorization: `Bearer ${app.jwt.sign({ sub: id, role, tv })}`,
  });
  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string> = {},
    payload?: Record<string, unknown>,
  ) =>
    app.inject({
      method,
      url,
      headers,
      ...(payload ? { payload } : {}),
      remoteAddress: `10.11.0.${(ip++ % 250) + 1}`,
    });

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    clusterA = await seedCluster(testDb.db, 'Cluster Audit A');
    clusterB = await seedCluster(testDb.db, 'Cluster Audit B');
    const roles: [string, RoleCode, string | null][] = [
      ['superAdmin', 'ROLE_SUPER_ADMIN', null],
      ['admin', 'ROLE_ADMIN', null],
      ['accountant', 'ROLE_ACCOUNTING', null],
      ['manager', 'ROLE_CLUSTER_MANAGER', clusterA],
      ['grower', 'ROLE_GROWER', clusterA],
    ];
    for (const [name, role, clusterId] of roles) {
      const user = await seedUser(testDb.db, role, { clusterId });
      people[name] = { ...user, headers: bearer(user.id, role) };
    }
  });
  afterAll(async () => app?.close());

  it('records each change with who and when, readable through GET /users/{id}/audit', async () => {
    const { admin, manager, superAdmin, accountant } = people as Record<
      string,
      (typeof people)[string]
    >;
    const started = Date.now();
    // Created by the cluster manager…
    const created = await call(
      'POST',
      '/api/users/invitation/signup?typeUser=user',
      manager!.headers,
      {
        firstname: 'Audité',
        lastname: 'Compte',
        email: `audite.${Date.now()}@exemple.bj`,
        phone: '97000000',
        roleCode: 'ROLE_GROWER',
        momoAccountNumber: '0197000011',
      },
    );
    expect(created.statusCode).toBe(201);
    const user = created.json() as { id: string; email: string };
    // …who sets its password from the invitation link, signs in, changes its payout account,
    // e-mail and password itself…
    const mail = await testDb.db
      .selectFrom('outbox')
      .select('text')
      .where('recipient', '=', user.email)
      .executeTakeFirstOrThrow();
    const token = new URL(mail.text.match(/https?:\/\/\S+/)![0]).searchParams.get('t');
    expect(
      (
        await call(
          'POST',
          '/api/users/validation/signup',
          {},
          {
            token,
            email: user.email,
            password: TEST_PASSWORD,
            confirmPassword: TEST_PASSWORD,
          },
        )
      ).statusCode,
    ).toBe(200);
    const login = await call(
      'POST',
      '/api/auth/login',
      {},
      {
        email: user.email,
        password: TEST_PASSWORD,
      },
    );
    let own = { authorization: `Bearer ${login.json().access_token}` };
    const newEmail = `audite.nouveau.${Date.now()}@exemple.bj`;
    expect(
      (
        await call('PATCH', '/api/users/me/momoAccountNumber', own, {
          momoAccountNumber: '0197000022',
          currentPassword: TEST_PASSWORD,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await call('PATCH', '/api/users/me/email', own, {
          email: newEmail,
          currentPassword: TEST_PASSWORD,
        })
      ).statusCode,
    ).toBe(200);
    const changed = await call('POST', '/api/users/me/password', own, {
      oldPassword: TEST_PASSWORD,
      newPassword: 'Autre#2026',
      confirmPassword: 'Autre#2026',
    });
    expect(changed.statusCode).toBe(200);
    own = { authorization: `Bearer ${changed.json().access_token}` };
    expect((await call('GET', '/api/users/me', own)).statusCode).toBe(200);
    // …its role changed by the manager, its cluster by the admin, deactivated, reactivated,
    // then deleted by the super admin.
    expect(
      (await call('PATCH', `/api/users/${user.id}`, manager!.headers, { roleId: 4 })).statusCode,
    ).toBe(200);
    expect(
      (await call('PATCH', `/api/users/${user.id}`, admin!.headers, { clusterId: clusterB }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call('GET', `/api/users/activate-account/${user.id}`, admin!.headers)).json().isActive,
    ).toBe(false);
    expect(
      (await call('GET', `/api/users/activate-account/${user.id}`, admin!.headers)).json().isActive,
    ).toBe(true);
    expect((await call('DELETE', `/api/users/${user.id}`, superAdmin!.headers)).statusCode).toBe(
      204,
    );

    const audit = await call('GET', `/api/users/${user.id}/audit?limit=-1`, accountant!.headers);
    expect(audit.statusCode).toBe(200);
    const { data, count } = audit.json() as {
      data: { type: string; recordedAt: string; actor: { id: string } | null; data: any }[];
      count: number;
    };
    const by = (id: string) => expect.objectContaining({ id });
    // Newest first.
    expect(data.map((e) => [e.type, e.actor])).toEqual([
      ['UserDeleted', by(superAdmin!.id)],
      ['UserActivated', by(admin!.id)],
      ['UserDeactivated', by(admin!.id)],
      ['UserClusterChanged', by(admin!.id)],
      ['UserRoleChanged', by(manager!.id)],
      ['UserPasswordChanged', by(user.id)],
      ['UserEmailChanged', by(user.id)],
      ['UserPayoutAccountChanged', by(user.id)],
      ['UserPasswordChanged', by(user.id)],
      ['UserRegistered', by(manager!.id)],
    ]);
    expect(count).toBe(10);
    const find = (type: string) => data.find((e) => e.type === type)!.data;
    expect(find('UserRegistered')).toMatchObject({
      role: 'ROLE_GROWER',
      clusterId: clusterA,
      momoAccountNumber: '0197000011',
      selfRegistered: false,
    });
    expect(find('UserPayoutAccountChanged')).toMatchObject({
      account: 'MOBILE_MONEY',
      from: '0197000011',
      to: '0197000022',
    });
    expect(find('UserEmailChanged')).toMatchObject({ from: user.email, to: newEmail });
    expect(find('UserRoleChanged')).toMatchObject({ from: 'ROLE_GROWER', to: 'ROLE_CARRIER' });
    expect(find('UserClusterChanged')).toMatchObject({ from: clusterA, to: clusterB });
    expect(data.filter((e) => e.type === 'UserPasswordChanged').map((e) => e.data.via)).toEqual([
      'PROFILE',
      'INVITATION',
    ]);
    for (const entry of data) {
      expect(Date.parse(entry.recordedAt)).toBeGreaterThanOrEqual(started - 1000);
      // No secret in the trail.
      expect(JSON.stringify(entry)).not.toMatch(/password_hash|argon2|Autre#2026|Secret#2026/);
    }
    // Paged: { data, count } with the total.
    const page = (
      await call('GET', `/api/users/${user.id}/audit?page=2&limit=3`, admin!.headers)
    ).json();
    expect(page.count).toBe(10);
    expect(page.data.map((e: { type: string }) => e.type)).toEqual([
      'UserClusterChanged',
      'UserRoleChanged',
      'UserPasswordChanged',
    ]);
  });

  it('is for super admins, admins and accountants only; 404 for an unknown user', async () => {
    const { manager, grower, superAdmin } = people as Record<string, (typeof people)[string]>;
    for (const who of [manager!, grower!]) {
      expect((await call('GET', `/api/users/${grower!.id}/audit`, who.headers)).statusCode).toBe(
        403,
      );
    }
    expect(
      (await call('GET', `/api/users/${grower!.id}/audit`, superAdmin!.headers)).json(),
    ).toEqual({ data: [], count: 0 });
    const unknown = await call(
      'GET',
      '/api/users/00000000-0000-4000-8000-000000000000/audit',
      superAdmin!.headers,
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Utilisateur introuvable');
  });

  it('the platform auditor reads every audit trail; an organisation’s accountant its organisation’s only', async () => {
    const { accountant: auditor, grower } = people as Record<string, (typeof people)[string]>;
    const organizationId = await seedOrganization(testDb.db, 'Audit Comptables SARL');
    const staff = await seedUser(testDb.db, 'ROLE_ACCOUNTING', {
      organizationId,
      clusterId: clusterA,
    });
    const staffHeaders = bearer(staff.id, 'ROLE_ACCOUNTING');
    const member = await seedUser(testDb.db, 'ROLE_SECRETARY', { organizationId });
    const status = async (url: string, headers: Record<string, string>) =>
      (await call('GET', url, headers)).statusCode;
    // Its own trail and its organisation's members': yes.
    expect(await status(`/api/users/${staff.id}/audit`, staffHeaders)).toBe(200);
    expect(await status(`/api/users/${member.id}/audit`, staffHeaders)).toBe(200);
    // Anybody else's (a grower of its cluster, the auditor), and an unknown id: 403, no 404
    // telling which ids exist.
    const refused = await call('GET', `/api/users/${grower!.id}/audit`, staffHeaders);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Cet utilisateur n’est pas dans votre périmètre');
    expect(await status(`/api/users/${auditor!.id}/audit`, staffHeaders)).toBe(403);
    expect(
      await status('/api/users/00000000-0000-4000-8000-000000000000/audit', staffHeaders),
    ).toBe(403);
    // A cluster's configuration history: the platform auditor reads any cluster's (it has no
    // cluster); an organisation's accountant none, not even its own cluster's.
    expect(await status(`/api/clusters/cluster/${clusterA}/audit`, auditor!.headers)).toBe(200);
    expect(await status(`/api/clusters/cluster/${clusterB}/audit`, auditor!.headers)).toBe(200);
    expect(await status(`/api/clusters/cluster/${clusterA}/audit`, staffHeaders)).toBe(403);
    // The platform auditor reads anybody's.
    for (const id of [grower!.id, staff.id, member.id]) {
      expect(await status(`/api/users/${id}/audit`, auditor!.headers)).toBe(200);
    }
  });

  it('a refused change writes no event', async () => {
    const { manager, grower } = people as Record<string, (typeof people)[string]>;
    const before = await app.eventStore.readStream(`user-${grower!.id}`);
    expect(
      (
        await call('PATCH', `/api/users/${grower!.id}`, manager!.headers, {
          firstname: 'Changé',
          momoAccountNumber: '0166000000',
        })
      ).statusCode,
    ).toBe(403);
    expect(await app.eventStore.readStream(`user-${grower!.id}`)).toEqual(before);
    const row = await testDb.db
      .selectFrom('users')
      .select('firstname')
      .where('id', '=', grower!.id)
      .executeTakeFirstOrThrow();
    expect(row.firstname).not.toBe('Changé');
  });
});
