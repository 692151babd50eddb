import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { pgPushSource, PUSH_PG_CHANNEL, type PushMessage } from '@filiere/projections';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../test-app.js';
import { USER_PUSH } from './notify.js';
import { seedUser } from './test-support.js';
import type { Database } from '../database.js';

describe('pushes to super admins when the inactive counter moves', () => {
  const testDb = useTestDatabase<Database>();
  const userPushes = (received: PushMessage[]) =>
    received.filter((m) => (Object.values(USER_PUSH) as string[]).includes(m.type));
  /** The active super admins: earlier tests of this file seed theirs in the same database. */
  const activeSuperAdmins = async () =>
    (
      await sql<{ id: string }>`select u.id from users u join roles r on r.id = u.role_id
        where r.code = 'ROLE_SUPER_ADMIN' and u.is_active and u.deleted_at is null`.execute(
        testDb.db,
      )
    ).rows
      .map((r) => r.id)
      .sort();

  it('a self-registration and a toggle reach the super admins’ rooms', async () => {
    const app = await buildTestApp(testDb.db);
    const superAdmin = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN');
    const source = pgPushSource(testDb.url);
    const received: PushMessage[] = [];
    source.subscribe((msg) => received.push(msg));
    // Wait until LISTEN is in place: probe until a probe comes back.
    for (let i = 0; i < 200 && !received.some((m) => m.type === 'probe'); i++) {
      await sql`select pg_notify(${PUSH_PG_CHANNEL}, ${JSON.stringify({ type: 'probe', userIds: [] })})`.execute(
        testDb.db,
      );
      await new Promise((r) => setTimeout(r, 25));
    }

    const registered = await app.inject({
      method: 'POST',
      url: '/api/users/invitation/signup?typeUser=cluster-manager',
      payload: { firstname: 'N', lastname: 'M', email: 'push@exemple.bj', phone: '97000000' },
    });
    const userId = registered.json().id;
    await app.inject({
      url: `/api/users/activate-account/${userId}`,
      headers: {
        authorization: `Bearer ${app.jwt.sign({ sub: superAdmin.id, role: 'ROLE_SUPER_ADMIN' })}`,
      },
    });
    for (let i = 0; i < 200 && received.filter((m) => m.type !== 'probe').length < 2; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(received.filter((m) => m.type !== 'probe')).toEqual([
      {
        type: USER_PUSH.inactiveCreated,
        userIds: [superAdmin.id],
        data: { userId, role: 'ROLE_CLUSTER_MANAGER' },
      },
      { type: USER_PUSH.statusChanged, userIds: [superAdmin.id], data: { userId, isActive: true } },
    ]);
    await source.close();
    await app.close();
  });

  it('an aggregator registered, activated and deleted: only the active super admins hear it', async () => {
    const app = await buildTestApp(testDb.db);
    const superAdmin = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN');
    // Neither an inactive super admin nor a cluster manager is told.
    const asleep = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN', { active: false });
    const manager = await seedUser(testDb.db, 'ROLE_CLUSTER_MANAGER');
    const source = pgPushSource(testDb.url);
    const received: PushMessage[] = [];
    source.subscribe((msg) => received.push(msg));
    for (let i = 0; i < 200 && !received.some((m) => m.type === 'probe'); i++) {
      await sql`select pg_notify(${PUSH_PG_CHANNEL}, ${JSON.stringify({ type: 'probe', userIds: [] })})`.execute(
        testDb.db,
      );
      await new Promise((r) => setTimeout(r, 25));
    }
    const headers = {
      authorization: `Bearer ${app.jwt.sign({ sub: superAdmin.id, role: 'ROLE_SUPER_ADMIN' })}`,
    };

    const registered = await app.inject({
      method: 'POST',
      url: '/api/users/invitation/signup?typeUser=industrial',
      payload: {
        firstname: 'Awa',
        lastname: 'Dossou',
        email: 'agregateur.push@exemple.bj',
        phone: '97000043',
        ifu: '3201234567891',
        denomination: 'Ananas Push SARL',
      },
    });
    expect(registered.statusCode).toBe(201);
    const userId = registered.json().id;
    const activated = await app.inject({ url: `/api/users/activate-account/${userId}`, headers });
    expect(activated.statusCode).toBe(200);
    const deleted = await app.inject({ method: 'DELETE', url: `/api/users/${userId}`, headers });
    expect(deleted.statusCode).toBeLessThan(300);

    for (let i = 0; i < 200 && userPushes(received).length < 4; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    const to = await activeSuperAdmins();
    expect(to).toContain(superAdmin.id);
    expect(to).not.toContain(asleep.id);
    expect(to).not.toContain(manager.id);
    const sorted = userPushes(received).map((m) => ({ ...m, userIds: [...m.userIds].sort() }));
    expect(sorted).toEqual([
      { type: USER_PUSH.inactiveCreated, userIds: to, data: { userId, role: 'ROLE_INDUSTRIAL' } },
      { type: USER_PUSH.statusChanged, userIds: to, data: { userId, isActive: true } },
      { type: USER_PUSH.industrialToAdd, userIds: to, data: { userId } },
      { type: USER_PUSH.deleted, userIds: to, data: { userId } },
    ]);
    await source.close();
    await app.close();
  });

  it('an aggregator created active by the super admin is a new industrial to add', async () => {
    const app = await buildTestApp(testDb.db);
    const superAdmin = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN');
    const source = pgPushSource(testDb.url);
    const received: PushMessage[] = [];
    source.subscribe((msg) => received.push(msg));
    for (let i = 0; i < 200 && !received.some((m) => m.type === 'probe'); i++) {
      await sql`select pg_notify(${PUSH_PG_CHANNEL}, ${JSON.stringify({ type: 'probe', userIds: [] })})`.execute(
        testDb.db,
      );
      await new Promise((r) => setTimeout(r, 25));
    }
    const organizationId = (
      await sql<{ id: string }>`insert into organizations (denomination, organization_type)
        values ('Ananas Actif', 'INDUSTRIAL') returning id`.execute(testDb.db)
    ).rows[0]!.id;
    const created = await app.inject({
      method: 'POST',
      url: '/api/users/invitation/signup?typeUser=user',
      headers: {
        authorization: `Bearer ${app.jwt.sign({ sub: superAdmin.id, role: 'ROLE_SUPER_ADMIN' })}`,
      },
      payload: {
        firstname: 'Koffi',
        lastname: 'Actif',
        email: 'agregateur.actif@exemple.bj',
        phone: '97000044',
        roleCode: 'ROLE_INDUSTRIAL',
        organizationId,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const userId = created.json().id;
    for (let i = 0; i < 200 && userPushes(received).length < 1; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    const sorted = userPushes(received).map((m) => ({ ...m, userIds: [...m.userIds].sort() }));
    expect(sorted).toEqual([
      { type: USER_PUSH.industrialToAdd, userIds: await activeSuperAdmins(), data: { userId } },
    ]);
    expect(sorted[0]!.userIds).toContain(superAdmin.id);
    await source.close();
    await app.close();
  });
});
