import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../test-app.js';

describe('access tokens and role guard', () => {
  const testDb = useTestDatabase();

  async function appWithProbe() {
    const app = await buildTestApp(testDb.db);
    app.get('/api/probe/any', { preHandler: app.authenticate }, async (request) => ({
      sub: request.user.sub,
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
    const foreignToken = foreign.jwt.sign({ sub: 'u1', role: 'ROLE_ADMIN' });
    for (const authorization of [undefined, 'Bearer nonsense', `Bearer ${foreignToken}`]) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/probe/any',
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe('Not authenticated');
    }
    await app.close();
    await foreign.close();
  });

  it('lets a valid token in and checks the role', async () => {
    const app = await appWithProbe();
    const grower = app.jwt.sign({ sub: 'u1', role: 'ROLE_GROWER' });
    const superAdmin = app.jwt.sign({ sub: 'u2', role: 'ROLE_SUPER_ADMIN' });
    const any = await app.inject({
      method: 'GET',
      url: '/api/probe/any',
      headers: { authorization: `Bearer ${grower}` },
    });
    expect(any.json()).toEqual({ sub: 'u1' });
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
});
