import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../test-app.js';
import type { Database } from '../database.js';

const FOREIGN = 'https://evil.example';
const ALLOWED = 'https://back-office.filiere.bj';

const preflight = (app: FastifyInstance, origin: string) =>
  app.inject({
    method: 'OPTIONS',
    url: '/api/wallet/make-transfer',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type,idempotency-key',
    },
  });

describe('CORS and security headers', () => {
  const testDb = useTestDatabase<Database>();
  let closed: FastifyInstance;
  let open: FastifyInstance;

  beforeAll(async () => {
    closed = await buildTestApp(testDb.db);
    open = await buildTestApp(testDb.db, { env: { CORS_ORIGINS: ALLOWED } });
  });
  afterAll(async () => {
    await closed?.close();
    await open?.close();
  });

  it('CORS is closed by default: no Access-Control-Allow-Origin, preflight not granted', async () => {
    const simple = await closed.inject({ url: '/api/health', headers: { origin: FOREIGN } });
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await preflight(closed, FOREIGN);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['access-control-allow-methods']).toBeUndefined();
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('CORS_ORIGINS opens it for the listed origins only', async () => {
    const allowed = await open.inject({ url: '/api/health', headers: { origin: ALLOWED } });
    expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED);
    const pre = await preflight(open, ALLOWED);
    expect(pre.statusCode).toBeLessThan(300);
    expect(pre.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(pre.headers['access-control-allow-methods'])).toContain('POST');

    const foreign = await open.inject({ url: '/api/health', headers: { origin: FOREIGN } });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const foreignPre = await preflight(open, FOREIGN);
    expect(foreignPre.headers['access-control-allow-origin']).toBeUndefined();
    // No wildcard, ever.
    expect(allowed.headers['access-control-allow-origin']).not.toBe('*');
  });

  it('helmet headers on API answers, errors included', async () => {
    for (const url of ['/api/health', '/api/users/me', '/api/nowhere']) {
      const res = await closed.inject({ url });
      const h = res.headers;
      const csp = String(h['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'self'"); // same-origin framing only, as X-Frame-Options
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain("script-src 'unsafe-inline'");
      expect(h['x-content-type-options']).toBe('nosniff');
      expect(h['x-frame-options']).toBe('SAMEORIGIN');
      // Sent always; browsers honour it over HTTPS only (TLS ends at the reverse proxy).
      expect(String(h['strict-transport-security'])).toMatch(/max-age=\d{7,}/);
      expect(h['referrer-policy']).toBe('no-referrer');
      expect(h['cross-origin-opener-policy']).toBe('same-origin');
      expect(h['x-powered-by']).toBeUndefined();
    }
  });

  it('error answers do not reveal internals (no stack, no SQL)', async () => {
    const res = await closed.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toMatch(/at .*\.(ts|js):\d+|stack|select |insert /i);
  });
});
