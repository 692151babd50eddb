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
});
