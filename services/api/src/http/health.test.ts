import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../test-app.js';

describe('health and readiness', () => {
  const testDb = useTestDatabase();
  const unreachable = createDb('postgres://nobody:x@127.0.0.1:1/none');
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
