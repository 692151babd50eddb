import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { seedUser } from '../identity/test-support.js';
import { buildTestApp } from '../test-app.js';
import { NOT_AUTHENTICATED } from './auth.js';
import type { Database } from '../database.js';

describe('access tokens and role guard', () => {
  const testDb = useTestDatabase<Database>();

  async function appWithProbe() {
    const app = await buildTestApp(testDb.db);
    app.get('/api/probe/any', { preHandler: app.authenticate }, async (request) => ({
      sub: request.user.sub,
      role: request.actor!.role_code,
    }));
    app.get('/api/probe/admin', { preHandler: app.requireRoles('ROLE_SUPER_ADMIN') }, async () => ({
      ok: true,
    }));
    return app;
  }

  it('refuses a request without token, with a bad token, or with another secret: 401', async () => {
    const app = await appWithProbe();
    const foreign = await buildTestApp(testDb.db, {
      env: { JWT_SECRET: 'another-secret-that-is-long-enough-0123456789' },
    });
    const admin = await seedUser(testDb.db, 'ROLE_ADMIN');
    const foreignToken = foreign.jwt.sign({ sub: admin.id, role: 'ROLE_ADMIN' });
    for (const authorization of [undefined, 'Bearer nonsense', `Bearer ${foreignToken}`]) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/probe/any',
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe(NOT_AUTHENTICATED);
    }
    await app.close();
    await foreign.close();
  });

  it('lets a valid token in and checks the role', async () => {
    const app = await appWithProbe();
    const growerUser = await seedUser(testDb.db, 'ROLE_GROWER');
    const superUser = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN');
    const grower = app.jwt.sign({ sub: growerUser.id, role: 'ROLE_GROWER' });
    const superAdmin = app.jwt.sign({ sub: superUser.id, role: 'ROLE_SUPER_ADMIN' });
    const any = await app.inject({
      method: 'GET',
      url: '/api/probe/any',
      headers: { authorization: `Bearer ${grower}` },
    });
    expect(any.json()).toEqual({ sub: growerUser.id, role: 'ROLE_GROWER' });
    const refused = await app.inject({
      method: 'GET',
      url: '/api/probe/admin',
      headers: { authorization: `Bearer ${grower}` },
    });
    expect(refused.statusCode).toBe(403);
    const allowed = await app.inject({
      method: 'GET',
      url: '/api/probe/admin',
      headers: { authorization: `Bearer ${superAdmin}` },
    });
    expect(allowed.statusCode).toBe(200);
    await app.close();
  });

  it('authorizes with the CURRENT role and state, not the token’s claims', async () => {
    const app = await appWithProbe();
    const user = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN');
    const token = `Bearer ${app.jwt.sign({ sub: user.id, role: 'ROLE_SUPER_ADMIN' })}`;
    const probe = (url: string) => app.inject({ url, headers: { authorization: token } });
    expect((await probe('/api/probe/admin')).statusCode).toBe(200);
    // Demoted in the database: the token still says super admin, the guard does not believe it.
    await testDb.db.updateTable('users').set({ role_id: 3 }).where('id', '=', user.id).execute();
    expect((await probe('/api/probe/admin')).statusCode).toBe(403);
    expect((await probe('/api/probe/any')).json().role).toBe('ROLE_GROWER');
    // A token of a version the user no longer has (revoked) → 401; the current version passes.
    await testDb.db
      .updateTable('users')
      .set({ token_version: 1 })
      .where('id', '=', user.id)
      .execute();
    expect((await probe('/api/probe/any')).statusCode).toBe(401);
    const fresh = app.jwt.sign({ sub: user.id, role: 'ROLE_GROWER', tv: 1 });
    const again = await app.inject({
      url: '/api/probe/any',
      headers: { authorization: `Bearer ${fresh}` },
    });
    expect(again.statusCode).toBe(200);
    // Deactivated → 401.
    await testDb.db
      .updateTable('users')
      .set({ is_active: false })
      .where('id', '=', user.id)
      .execute();
    const inactive = await app.inject({
      url: '/api/probe/any',
      headers: { authorization: `Bearer ${fresh}` },
    });
    expect(inactive.statusCode).toBe(401);
    await app.close();
  });
});
