import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { seedUser } from '../identity/test-support.js';
import { buildTestApp } from '../test-app.js';
import type { Database } from '../database.js';

const b64 = (value: object | string) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A JWT signed by hand (HMAC of `alg`, or no signature for `none`). */
function jwt(header: object, payload: object, secret: string | undefined, hash = 'sha256') {
  const body = `${b64(header)}.${b64(payload)}`;
  const signature = secret ? createHmac(hash, secret).update(body).digest('base64url') : '';
  return `${body}.${signature}`;
}

const ROUTES = [
  { method: 'GET', url: '/api/users/me' },
  { method: 'GET', url: '/api/wallet/stats' },
  { method: 'GET', url: '/api/users' },
] as const;

describe('access tokens: only a valid HS256 token of our secret passes', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let secret: string;
  let user: { id: string };
  const now = () => Math.floor(Date.now() / 1000);
  const claims = () => ({ sub: user.id, role: 'ROLE_SUPER_ADMIN', iat: now() - 10 });

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    secret = app.deps.config.JWT_SECRET;
    user = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN');
  });
  afterAll(async () => app?.close());

  const call = (authorization: string | undefined) =>
    Promise.all(
      ROUTES.map((r) =>
        app.inject({ ...r, headers: authorization === undefined ? {} : { authorization } }),
      ),
    );

  it('a hand-signed valid token passes (the forgeries below differ in one thing)', async () => {
    const token = jwt({ alg: 'HS256', typ: 'JWT' }, { ...claims(), exp: now() + 60 }, secret);
    for (const res of await call(`Bearer ${token}`)) expect(res.statusCode).toBe(200);
  });

  const forgeries: Record<string, () => string | undefined> = {
    'no Authorization header': () => undefined,
    expired: () =>
      `Bearer ${jwt({ alg: 'HS256', typ: 'JWT' }, { ...claims(), iat: now() - 7200, exp: now() - 60 }, secret)}`,
    'payload tampered (role raised, signature of the original)': () => {
      const [h, , s] = app.jwt.sign({ sub: user.id, role: 'ROLE_GROWER' }).split('.');
      return `Bearer ${h}.${b64({ ...claims(), exp: now() + 60 })}.${s}`;
    },
    'alg none, no signature': () =>
      `Bearer ${jwt({ alg: 'none', typ: 'JWT' }, { ...claims(), exp: now() + 60 }, undefined)}`,
    'alg none with a signature': () =>
      `Bearer ${jwt({ alg: 'none', typ: 'JWT' }, { ...claims(), exp: now() + 60 }, secret)}`,
    'wrong secret': () =>
      `Bearer ${jwt({ alg: 'HS256', typ: 'JWT' }, { ...claims(), exp: now() + 60 }, 'not-our-secret')}`,
    'HS512 with our secret (algorithm not allowed)': () =>
      `Bearer ${jwt({ alg: 'HS512', typ: 'JWT' }, { ...claims(), exp: now() + 60 }, secret, 'sha512')}`,
    'not yet valid (nbf in the future)': () =>
      `Bearer ${jwt({ alg: 'HS256', typ: 'JWT' }, { ...claims(), nbf: now() + 3600, exp: now() + 7200 }, secret)}`,
    'malformed: Bearer alone': () => 'Bearer',
    'malformed: Bearer and spaces': () => 'Bearer    ',
    'malformed: one segment': () => 'Bearer abcdef',
    'malformed: garbage segments': () => 'Bearer a.b.c',
    'malformed: not base64': () => 'Bearer @@@.###.$$$',
    'malformed: JSON array payload': () => `Bearer ${b64({ alg: 'HS256' })}.${b64('[1]')}.x`,
    'another scheme (Basic)': () => 'Basic YWRtaW46YWRtaW4=',
    'a valid token without a role': () =>
      `Bearer ${jwt({ alg: 'HS256', typ: 'JWT' }, { sub: user.id, iat: now(), exp: now() + 60 }, secret)}`,
  };

  for (const [name, make] of Object.entries(forgeries)) {
    it(`${name} → 401 with a message`, async () => {
      for (const res of await call(make())) {
        expect(res.statusCode, res.body).toBe(401);
        expect(res.json().message).toEqual(expect.any(String));
        expect(res.json().message.length).toBeGreaterThan(0);
      }
    });
  }

  it('a valid token of a deleted user → 401', async () => {
    const gone = await seedUser(testDb.db, 'ROLE_ADMIN');
    const token = app.jwt.sign({ sub: gone.id, role: 'ROLE_ADMIN' });
    await testDb.db
      .updateTable('users')
      .set({ deleted_at: new Date() })
      .where('id', '=', gone.id)
      .execute();
    for (const res of await call(`Bearer ${token}`)) expect(res.statusCode).toBe(401);
  });
});
