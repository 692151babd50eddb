import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, parseConfig, type Config } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { seedUser } from '../identity/test-support.js';
import type { Database } from '../database.js';
import { buildTestApp } from '../test-app.js';
import type { RoleCode } from './auth.js';

describe('health and readiness', () => {
  const testDb = useTestDatabase<Database>();
  const unreachable = createDb<Database>('postgres://nobody:x@127.0.0.1:1/none');
  afterAll(() => unreachable.destroy());

  it('/api/health answers {"status":"ok"}', async () => {
    const app = await buildTestApp(testDb.db);
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    await app.close();
  });

  it('/api/ready is 200 when the database answers', async () => {
    const app = await buildTestApp(testDb.db);
    const response = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ready', checks: { database: { ok: true } } });
    await app.close();
  });

  it('/api/ready is 503 naming the database when it does not answer', async () => {
    const app = await buildTestApp(unreachable);
    const response = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      status: 'unavailable',
      checks: { database: { ok: false } },
    });
    await app.close();
  });

  it('answers an unknown API route with a JSON 404 and a message', async () => {
    const app = await buildTestApp(testDb.db);
    const response = await app.inject({ method: 'GET', url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toContain('/api/nope');
    await app.close();
  });

  it('serves the OpenAPI document', async () => {
    const app = await buildTestApp(testDb.db);
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(response.json().paths).toHaveProperty('/api/health');
    await app.close();
  });
});

describe('production: /api/health public, /api/docs and /api/ready details behind /api/metrics credentials', () => {
  const testDb = useTestDatabase<Database>();
  const unreachable = createDb<Database>('postgres://nobody:x@127.0.0.1:1/none');
  afterAll(() => unreachable.destroy());
  const TOKEN = 'ops-token-0123456789abcdef';
  /** A production configuration (payments through FedaPay: a sandbox payout is refused there). */
  const production = (): Config => ({
    ...parseConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      METRICS_TOKEN: TOKEN,
      PAYMENT_PROVIDER: 'fedapay',
      FEDAPAY_PUBLIC_KEY: 'pk_test',
      FEDAPAY_SECRET_KEY: 'sk_test',
    }),
    NODE_ENV: 'production',
  });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const jwtOf = async (app: FastifyInstance, role: RoleCode) => {
    const user = await seedUser(testDb.db, role);
    return bearer(app.jwt.sign({ sub: user.id, role }));
  };

  it('/api/health stays public', async () => {
    const app = await buildTestApp(testDb.db, { config: production() });
    const response = await app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    await app.close();
  });

  it('/api/ready: the status alone without credentials (200 or 503), the checks with them', async () => {
    const app = await buildTestApp(testDb.db, { config: production() });
    const anonymous = await app.inject({ url: '/api/ready' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toEqual({ status: 'ready' });
    const scraper = await app.inject({ url: '/api/ready', headers: bearer(TOKEN) });
    expect(scraper.statusCode).toBe(200);
    expect(scraper.json()).toMatchObject({ status: 'ready', checks: { database: { ok: true } } });
    const admin = await app.inject({ url: '/api/ready', headers: await jwtOf(app, 'ROLE_ADMIN') });
    expect(admin.json()).toMatchObject({ checks: { database: { ok: true } } });
    const grower = await app.inject({
      url: '/api/ready',
      headers: await jwtOf(app, 'ROLE_GROWER'),
    });
    expect(grower.statusCode).toBe(403);
    const wrong = await app.inject({ url: '/api/ready', headers: bearer('not-the-token') });
    expect(wrong.statusCode).toBe(401);
    await app.close();

    const down = await buildTestApp(unreachable, { config: production() });
    const unavailable = await down.inject({ url: '/api/ready' });
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.json()).toEqual({ status: 'unavailable' });
    await down.close();
  });

  it('/api/docs: 401 without credentials, 403 for a non-admin, served to the token and admins', async () => {
    const app = await buildTestApp(testDb.db, { config: production() });
    for (const url of ['/api/docs', '/api/docs/json', '/api/docs/yaml']) {
      expect((await app.inject({ url })).statusCode, url).toBe(401);
    }
    const grower = await jwtOf(app, 'ROLE_GROWER');
    expect((await app.inject({ url: '/api/docs/json', headers: grower })).statusCode).toBe(403);
    const scraper = await app.inject({ url: '/api/docs/json', headers: bearer(TOKEN) });
    expect(scraper.statusCode).toBe(200);
    expect(scraper.json().paths).toHaveProperty('/api/health');
    const admin = await jwtOf(app, 'ROLE_SUPER_ADMIN');
    expect((await app.inject({ url: '/api/docs', headers: admin })).statusCode).toBe(200);
    await app.close();
  });

  it('in development both stay open', async () => {
    const app = await buildTestApp(testDb.db, { env: { NODE_ENV: 'development' } });
    expect((await app.inject({ url: '/api/docs/json' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/docs' })).statusCode).toBe(200);
    const ready = await app.inject({ url: '/api/ready' });
    expect(ready.json()).toMatchObject({ status: 'ready', checks: { database: { ok: true } } });
    await app.close();
  });
});
