import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { seedUser, TEST_PASSWORD } from '../identity/test-support.js';
import { buildTestApp } from '../test-app.js';
import type { RoleCode } from './auth.js';
import type { Database } from '../database.js';

/**
 * Roles and account state come from the database, not the token: the guard loads the user
 * on every request and authorizes with its current role and state; a
 * password change or reset, a deactivation, a deletion or a role change revokes the tokens
 * issued before (token_version).
 */
describe('the guard believes the database, not the token', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let superAdmin: Record<string, string>;
  let ip = 0;
  const METRICS_TOKEN = 'scrape-token-for-revocation-0123456789';

  const bearer = (id: string, role: RoleCode) => ({
    authorization: `Bearer ${app.jwt.sign({ sub: id, role })}`,
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
      remoteAddress: `10.12.0.${(ip++ % 250) + 1}`,
    });

  beforeAll(async () => {
    app = await buildTestApp(testDb.db, { env: { METRICS_TOKEN } });
    const sa = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN');
    superAdmin = bearer(sa.id, 'ROLE_SUPER_ADMIN');
  });
  afterAll(async () => app?.close());

  it('a demoted admin’s old token gets 403 on the supplies list (its role claim still says admin)', async () => {
    const admin = await seedUser(testDb.db, 'ROLE_ADMIN');
    const old = bearer(admin.id, 'ROLE_ADMIN');
    expect((await call('GET', '/api/supply', old)).statusCode).toBe(200);
    // Demoted in the users table (a change that does not revoke tokens, e.g. made by hand):
    // the guard reads the current role.
    await testDb.db.updateTable('users').set({ role_id: 3 }).where('id', '=', admin.id).execute();
    const res = await call('GET', '/api/supply', old);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Vous n’avez pas accès à cette ressource');
  });

  it('a role change through the API revokes the old token: 401, a new sign-in carries the new role', async () => {
    const admin = await seedUser(testDb.db, 'ROLE_ADMIN');
    const old = bearer(admin.id, 'ROLE_ADMIN');
    expect((await call('GET', '/api/supply', old)).statusCode).toBe(200);
    const demoted = await call('PATCH', `/api/users/${admin.id}`, superAdmin, { roleId: 3 });
    expect(demoted.json().role.code).toBe('ROLE_GROWER');
    expect((await call('GET', '/api/supply', old)).statusCode).toBe(401);
    const login = await call(
      'POST',
      '/api/auth/login',
      {},
      {
        email: admin.email,
        password: TEST_PASSWORD,
      },
    );
    const fresh = { authorization: `Bearer ${login.json().access_token}` };
    expect((await call('GET', '/api/supply', fresh)).statusCode).toBe(403);
    expect((await call('GET', '/api/users/me', fresh)).json().role.code).toBe('ROLE_GROWER');
  });

  it('a deleted admin’s token gets 401 on /api/metrics', async () => {
    const admin = await seedUser(testDb.db, 'ROLE_ADMIN');
    const token = bearer(admin.id, 'ROLE_ADMIN');
    expect((await call('GET', '/api/metrics', token)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/users/${admin.id}`, superAdmin)).statusCode).toBe(204);
    const res = await call('GET', '/api/metrics', token);
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain('filiere_');
    // The scrape token still works.
    expect(
      (await call('GET', '/api/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })).statusCode,
    ).toBe(200);
  });

  it('a demoted admin’s token gets 403 on /api/metrics', async () => {
    const admin = await seedUser(testDb.db, 'ROLE_ADMIN');
    const token = bearer(admin.id, 'ROLE_ADMIN');
    await testDb.db.updateTable('users').set({ role_id: 3 }).where('id', '=', admin.id).execute();
    expect((await call('GET', '/api/metrics', token)).statusCode).toBe(403);
  });

  it('a token issued before a password change is refused (401); the one the change answers works', async () => {
    const user = await seedUser(testDb.db, 'ROLE_INDUSTRIAL');
    const old = bearer(user.id, 'ROLE_INDUSTRIAL');
    const changed = await call('POST', '/api/users/me/password', old, {
      oldPassword: TEST_PASSWORD,
      newPassword: 'Nouveau#2026',
      confirmPassword: 'Nouveau#2026',
    });
    expect(changed.statusCode).toBe(200);
    expect((await call('GET', '/api/users/me', old)).statusCode).toBe(401);
    const fresh = { authorization: `Bearer ${changed.json().access_token}` };
    expect((await call('GET', '/api/users/me', fresh)).statusCode).toBe(200);
    expect((await call('GET', '/api/wallet/stats', fresh)).statusCode).toBe(200);
    expect((await call('GET', '/api/wallet/stats', old)).statusCode).toBe(401);
  });

  it('a token issued before a password reset is refused (401); a new sign-in works', async () => {
    const user = await seedUser(testDb.db, 'ROLE_INDUSTRIAL');
    const old = bearer(user.id, 'ROLE_INDUSTRIAL');
    expect((await call('GET', '/api/users/me', old)).statusCode).toBe(200);
    await call('POST', `/api/users/forgot-password/${user.email}`);
    const mail = await testDb.db
      .selectFrom('outbox')
      .select('text')
      .where('recipient', '=', user.email)
      .executeTakeFirstOrThrow();
    const token = new URL(mail.text.match(/https?:\/\/\S+/)![0]).searchParams.get('t');
    const reset = await call(
      'POST',
      '/api/users/reset-password',
      {},
      {
        token,
        email: user.email,
        password: 'Remis#2026',
        confirmPassword: 'Remis#2026',
      },
    );
    expect(reset.statusCode).toBe(200);
    expect((await call('GET', '/api/users/me', old)).statusCode).toBe(401);
    const login = await call(
      'POST',
      '/api/auth/login',
      {},
      {
        email: user.email,
        password: 'Remis#2026',
      },
    );
    const fresh = { authorization: `Bearer ${login.json().access_token}` };
    expect((await call('GET', '/api/users/me', fresh)).statusCode).toBe(200);
  });

  it('a deactivated user’s token is refused, and stays refused once reactivated', async () => {
    const user = await seedUser(testDb.db, 'ROLE_INDUSTRIAL');
    const old = bearer(user.id, 'ROLE_INDUSTRIAL');
    expect(
      (await call('GET', `/api/users/activate-account/${user.id}`, superAdmin)).json().isActive,
    ).toBe(false);
    expect((await call('GET', '/api/users/me', old)).statusCode).toBe(401);
    expect(
      (await call('GET', `/api/users/activate-account/${user.id}`, superAdmin)).json().isActive,
    ).toBe(true);
    expect((await call('GET', '/api/users/me', old)).statusCode).toBe(401);
  });
});
