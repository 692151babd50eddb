import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import type { RoleCode } from '../http/auth.js';
import { buildTestApp } from '../test-app.js';
import { RULE_MESSAGES } from './field-rules.js';
import { seedCluster, seedOrganization, seedUser } from './test-support.js';
import type { Database } from '../database.js';

/**
 * 'Utilisateurs' for the aggregator and the SFD: they manage their own
 * organisation's staff (secretary, accounting, director); a cluster manager without a cluster
 * and an aggregator without an organisation are told what is missing; the super admin gives a
 * self-registered cluster manager its cluster.
 */
describe('organisation staff and what a manager lacks', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let clusterId: string;
  let ip = 0;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    clusterId = await seedCluster(testDb.db, 'Cluster Personnel');
  });
  afterAll(async () => app?.close());

  const as = (user: { id: string }, role: RoleCode) => ({
    authorization: `Bearer ${app.jwt.sign({ sub: user.id, role })}`,
  });
  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: Record<string, unknown>,
  ) =>
    app.inject({
      method,
      url,
      headers,
      ...(payload ? { payload } : {}),
      remoteAddress: `10.19.${Math.floor(ip / 250)}.${(ip++ % 250) + 1}`,
    });
  const staffBody = (email: string, roleId: number | string) => ({
    firstname: 'Chantal',
    lastname: 'Hounkpè',
    email,
    username: email,
    phone: '0197110022',
    roleId,
    organizationId: '',
    clusterId: '',
  });

  for (const role of ['ROLE_INDUSTRIAL', 'ROLE_SFD'] as const) {
    it(`${role}: lists, adds (invitation mail), edits and deletes its organisation's staff, nobody else`, async () => {
      const organizationId = await seedOrganization(testDb.db, `Ananas ${role}`);
      const otherOrganization = await seedOrganization(testDb.db, `Autre ${role}`);
      const manager = await seedUser(testDb.db, role, { clusterId, organizationId });
      const headers = as(manager, role);
      // Someone else's staff, a grower of its cluster and its organisation's other aggregator.
      const foreign = await seedUser(testDb.db, 'ROLE_ACCOUNTING', {
        organizationId: otherOrganization,
      });
      const grower = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId, organizationId });
      await seedUser(testDb.db, role, { clusterId, organizationId });

      const empty = await call('GET', '/api/users?page=1&limit=10', headers);
      expect(empty.statusCode, empty.body).toBe(200);
      expect(empty.json()).toEqual({ data: [], count: 0 });

      const email = `secretaire.${role.toLowerCase()}@ananas.bj`;
      const created = await call(
        'POST',
        '/api/users/invitation/signup?typeUser=user',
        headers,
        staffBody(email, '6'),
      );
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toMatchObject({
        role: { code: 'ROLE_SECRETARY' },
        organizationId,
        clusterId,
        isActive: true,
      });
      const mail = await testDb.db
        .selectFrom('outbox')
        .select('text')
        .where('recipient', '=', email)
        .executeTakeFirst();
      expect(mail?.text).toContain('/auth/signup-invitation?t=');
      const id = created.json().id as string;

      const list = await call('GET', '/api/users?page=1&limit=10', headers);
      expect(list.json().data.map((u: { id: string }) => u.id)).toEqual([id]);

      // Another role than staff, or another organisation: refused with the rule's reason.
      const grower2 = await call(
        'POST',
        '/api/users/invitation/signup?typeUser=user',
        headers,
        staffBody(`producteur.${role.toLowerCase()}@ananas.bj`, 3),
      );
      expect(grower2.statusCode).toBe(403);
      expect(grower2.json().message).toBe(RULE_MESSAGES.staffRoles);
      const elsewhere = await call('POST', '/api/users/invitation/signup?typeUser=user', headers, {
        ...staffBody(`ailleurs.${role.toLowerCase()}@ananas.bj`, 7),
        organizationId: otherOrganization,
      });
      expect(elsewhere.statusCode).toBe(403);

      // Edit: names and a staff role; the form sends every field back.
      const edited = await call('PATCH', `/api/users/${id}`, headers, {
        firstname: 'Chantale',
        lastname: 'Hounkpè',
        roleId: '8',
        organizationId,
        clusterId,
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({
        firstname: 'Chantale',
        role: { code: 'ROLE_DIRECTOR' },
      });
      const toGrower = await call('PATCH', `/api/users/${id}`, headers, { roleId: 3 });
      expect(toGrower.statusCode).toBe(403);
      const out = await call('PATCH', `/api/users/${id}`, headers, {
        organizationId: otherOrganization,
      });
      expect(out.statusCode).toBe(403);
      expect(out.json().message).toBe(RULE_MESSAGES.organizationByManager);
      expect((await call('GET', `/api/users/${id}`, headers)).statusCode).toBe(200);

      // Nobody outside its staff: not listed, not seen, not changed, not deleted.
      for (const other of [foreign, grower]) {
        expect((await call('GET', `/api/users/${other.id}`, headers)).statusCode).toBe(403);
        expect(
          (await call('PATCH', `/api/users/${other.id}`, headers, { firstname: 'X' })).statusCode,
        ).toBe(403);
        expect((await call('DELETE', `/api/users/${other.id}`, headers)).statusCode).toBe(403);
      }
      expect((await call('GET', `/api/users/cluster/${clusterId}`, headers)).statusCode).toBe(403);

      expect((await call('DELETE', `/api/users/${id}`, headers)).statusCode).toBe(204);
      expect((await call('GET', '/api/users?page=1&limit=10', headers)).json().count).toBe(0);
    });
  }

  it('an aggregator without an organisation, a cluster manager without a cluster: 403 saying what is missing', async () => {
    const aggregator = await seedUser(testDb.db, 'ROLE_INDUSTRIAL', { clusterId });
    const noOrganization = await call(
      'GET',
      '/api/users?page=1&limit=10',
      as(aggregator, 'ROLE_INDUSTRIAL'),
    );
    expect(noOrganization.statusCode).toBe(403);
    expect(noOrganization.json()).toMatchObject({
      reason: 'NO_ORGANIZATION',
      message: RULE_MESSAGES.noOrganization,
    });
    const manager = await seedUser(testDb.db, 'ROLE_CLUSTER_MANAGER');
    const headers = as(manager, 'ROLE_CLUSTER_MANAGER');
    for (const [method, url, body] of [
      ['GET', '/api/users?page=1&limit=10', undefined],
      [
        'POST',
        '/api/users/invitation/signup?typeUser=user',
        staffBody('producteur.sans.cluster@ananas.bj', 3),
      ],
    ] as const) {
      const res = await call(method, url, headers, body);
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toMatchObject({
        reason: 'NO_CLUSTER',
        message: RULE_MESSAGES.noCluster,
      });
    }

    // The super admin gives it a cluster: its list opens.
    const superAdmin = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN');
    const assigned = await call(
      'PATCH',
      `/api/users/${manager.id}`,
      as(superAdmin, 'ROLE_SUPER_ADMIN'),
      { clusterId },
    );
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json().clusterId).toBe(clusterId);
    const list = await call('GET', '/api/users?page=1&limit=10', headers);
    expect(list.statusCode).toBe(200);
    expect(list.json().count).toBeGreaterThan(0);
  });
});
