import { randomInt, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWithRedis, useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../test-app.js';
import { LIMITS, REDIS_PREFIX, tooManyMessage } from './http/rate-limit.js';
import { seedUser, TEST_PASSWORD } from './test-support.js';
import type { Database } from '../database.js';

const ATTEMPT = LIMITS.attempt;
const MAIL = LIMITS.mail;
const PER_IP_MESSAGE = 'Trop de tentatives. Réessayez dans 1 minute.';
const PER_ACCOUNT_MESSAGE = 'Trop de tentatives. Réessayez dans 15 minutes.';

/** A fresh address, so runs sharing one Redis do not share counters. */
const freshIp = () => `10.${randomInt(100, 250)}.${randomInt(0, 250)}.${randomInt(1, 250)}`;
const freshEmail = (name: string) => `${name}-${randomUUID().slice(0, 8)}@exemple.bj`;

function loginAttempt(
  app: FastifyInstance,
  email: string,
  remoteAddress: string,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: 'Wrong#Pass1' },
    remoteAddress,
    headers,
  });
}

describe('attempt limits on sign-in and password routes', () => {
  const testDb = useTestDatabase<Database>();

  it('wording of the 429: the wait in whole minutes, in French', () => {
    expect(tooManyMessage(1)).toBe(PER_IP_MESSAGE);
    expect(tooManyMessage(60_000)).toBe(PER_IP_MESSAGE);
    expect(tooManyMessage(60_001)).toBe('Trop de tentatives. Réessayez dans 2 minutes.');
    expect(tooManyMessage(15 * 60_000)).toBe(PER_ACCOUNT_MESSAGE);
  });

  it('login: the 11th attempt in a minute from one IP answers 429 in French, other IPs still pass', async () => {
    const app = await buildTestApp(testDb.db);
    const user = await seedUser(testDb.db, 'ROLE_GROWER');
    const statuses: number[] = [];
    for (let i = 0; i < ATTEMPT.perIp.max; i++) {
      statuses.push((await loginAttempt(app, `x${i}@exemple.bj`, '10.5.0.1')).statusCode);
    }
    expect(statuses).toEqual(Array(ATTEMPT.perIp.max).fill(401));
    const blocked = await loginAttempt(app, user.email, '10.5.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(PER_IP_MESSAGE);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const other = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
      remoteAddress: '10.5.0.2',
    });
    expect(other.statusCode).toBe(200);
    await app.close();
  });

  it('TRUST_PROXY off (default): a client changing X-Forwarded-For stays one client', async () => {
    const app = await buildTestApp(testDb.db);
    const statuses: number[] = [];
    for (let i = 1; i <= ATTEMPT.perIp.max + 1; i++) {
      const response = await loginAttempt(app, `spray${i}@exemple.bj`, '10.5.1.1', {
        'x-forwarded-for': `203.0.113.${i}`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([...Array(ATTEMPT.perIp.max).fill(401), 429]);
    await app.close();
  });

  it('TRUST_PROXY lists the proxy: its X-Forwarded-For is the client; other peers cannot use it', async () => {
    const app = await buildTestApp(testDb.db, { env: { TRUST_PROXY: '10.5.2.1, 10.6.0.0/16' } });
    // Through the proxy: each forwarded client has its own counter…
    for (let i = 1; i <= ATTEMPT.perIp.max + 1; i++) {
      const response = await loginAttempt(app, `via${i}@exemple.bj`, '10.5.2.1', {
        'x-forwarded-for': `203.0.113.${i}`,
      });
      expect(response.statusCode).toBe(401);
    }
    // …one forwarded client is limited, whatever it writes itself before the proxy's entry…
    const statuses: number[] = [];
    for (let i = 1; i <= ATTEMPT.perIp.max + 1; i++) {
      const response = await loginAttempt(app, `one${i}@exemple.bj`, '10.6.3.4', {
        'x-forwarded-for': `198.51.100.${i}, 203.0.113.200`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([...Array(ATTEMPT.perIp.max).fill(401), 429]);
    // …and a peer that is not a listed proxy is counted by its own address.
    const direct: number[] = [];
    for (let i = 1; i <= ATTEMPT.perIp.max + 1; i++) {
      const response = await loginAttempt(app, `direct${i}@exemple.bj`, '10.7.9.9', {
        'x-forwarded-for': `192.0.2.${i}`,
      });
      direct.push(response.statusCode);
    }
    expect(direct).toEqual([...Array(ATTEMPT.perIp.max).fill(401), 429]);
    await app.close();
  });

  it('TRUST_PROXY as a hop count: the nearest forwarded address is the client', async () => {
    const app = await buildTestApp(testDb.db, { env: { TRUST_PROXY: '1' } });
    const statuses: number[] = [];
    for (let i = 1; i <= ATTEMPT.perIp.max + 1; i++) {
      const response = await loginAttempt(app, `hop${i}@exemple.bj`, '10.5.3.1', {
        'x-forwarded-for': `198.51.100.${i}, 203.0.113.7`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([...Array(ATTEMPT.perIp.max).fill(401), 429]);
    const next = await loginAttempt(app, 'hop-next@exemple.bj', '10.5.3.1', {
      'x-forwarded-for': '203.0.113.8',
    });
    expect(next.statusCode).toBe(401);
    await app.close();
  });

  it('per account: 10 sign-in attempts on one address from 10 IPs, then 429 from any IP', async () => {
    const app = await buildTestApp(testDb.db);
    const user = await seedUser(testDb.db, 'ROLE_GROWER');
    const statuses: number[] = [];
    for (let i = 1; i <= ATTEMPT.perSubject.max + 1; i++) {
      statuses.push((await loginAttempt(app, user.email, `10.8.0.${i}`)).statusCode);
    }
    expect(statuses).toEqual([...Array(ATTEMPT.perSubject.max).fill(401), 429]);
    // Even with the right password, from yet another address: the account waits.
    const right = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email.toUpperCase(), password: TEST_PASSWORD },
      remoteAddress: '10.8.1.1',
    });
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toBe(PER_ACCOUNT_MESSAGE);
    await app.close();
  });

  const signIn = (app: FastifyInstance, email: string, remoteAddress: string) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: TEST_PASSWORD },
      remoteAddress,
    });

  it('only failures count: successful sign-ins never lock an account or an address; 10 failures do', async () => {
    const app = await buildTestApp(testDb.db);
    const user = await seedUser(testDb.db, 'ROLE_GROWER');
    const successes: number[] = [];
    // Twice the limits, from one address: the owner signing in again and again.
    for (let i = 0; i < 2 * ATTEMPT.perSubject.max; i++) {
      successes.push((await signIn(app, user.email, '10.14.0.1')).statusCode);
    }
    expect(successes).toEqual(Array(2 * ATTEMPT.perSubject.max).fill(200));
    // Then a guesser, from as many addresses: its 10 failures lock the account.
    const guesses: number[] = [];
    for (let i = 1; i <= ATTEMPT.perSubject.max + 1; i++) {
      guesses.push((await loginAttempt(app, user.email, `10.14.1.${i}`)).statusCode);
    }
    expect(guesses).toEqual([...Array(ATTEMPT.perSubject.max).fill(401), 429]);
    const owner = await signIn(app, user.email, '10.14.0.1');
    expect(owner.statusCode).toBe(429);
    expect(owner.json().message).toBe(PER_ACCOUNT_MESSAGE);
    await app.close();
  });

  it('a success clears no failure: 9 failures, a sign-in, then the 10th failure locks the account', async () => {
    const app = await buildTestApp(testDb.db);
    const user = await seedUser(testDb.db, 'ROLE_GROWER');
    const statuses: number[] = [];
    for (let i = 1; i < ATTEMPT.perSubject.max; i++) {
      statuses.push((await loginAttempt(app, user.email, `10.15.0.${i}`)).statusCode);
    }
    statuses.push((await signIn(app, user.email, '10.15.1.1')).statusCode);
    statuses.push((await loginAttempt(app, user.email, '10.15.1.2')).statusCode);
    statuses.push((await signIn(app, user.email, '10.15.1.3')).statusCode);
    expect(statuses).toEqual([...Array(ATTEMPT.perSubject.max - 1).fill(401), 200, 401, 429]);
    await app.close();
  });

  it('one address: successful sign-ins of many accounts pass; its failures still count', async () => {
    const app = await buildTestApp(testDb.db);
    // A cooperative's office: everyone signs in from one address.
    const statuses: number[] = [];
    for (let i = 0; i <= ATTEMPT.perIp.max; i++) {
      const user = await seedUser(testDb.db, 'ROLE_SECRETARY');
      statuses.push((await signIn(app, user.email, '10.16.0.1')).statusCode);
    }
    expect(statuses).toEqual(Array(ATTEMPT.perIp.max + 1).fill(200));
    const failures: number[] = [];
    for (let i = 0; i <= ATTEMPT.perIp.max; i++) {
      failures.push((await loginAttempt(app, `faux${i}@exemple.bj`, '10.16.0.1')).statusCode);
    }
    expect(failures).toEqual([...Array(ATTEMPT.perIp.max).fill(401), 429]);
    await app.close();
  });

  it('an address over its limit does not count against the accounts it tries', async () => {
    const app = await buildTestApp(testDb.db);
    const user = await seedUser(testDb.db, 'ROLE_GROWER');
    for (let i = 0; i < ATTEMPT.perIp.max; i++) {
      await loginAttempt(app, `filler${i}@exemple.bj`, '10.9.0.1');
    }
    for (let i = 0; i < 20; i++) {
      expect((await loginAttempt(app, user.email, '10.9.0.1')).statusCode).toBe(429);
    }
    const owner = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
      remoteAddress: '10.9.0.2',
    });
    expect(owner.statusCode).toBe(200);
    await app.close();
  });

  it('reset link: 5 mails an hour per target address, from many IPs', async () => {
    const app = await buildTestApp(testDb.db);
    const statuses: number[] = [];
    for (let i = 1; i <= MAIL.perSubject.max + 1; i++) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/users/forgot-password/cible@exemple.bj',
        remoteAddress: `10.6.0.${i}`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([...Array(MAIL.perSubject.max).fill(200), 429]);
    await app.close();
  });

  it('reset, validation, resend and password change are limited too', async () => {
    const app = await buildTestApp(testDb.db);
    const user = await seedUser(testDb.db, 'ROLE_GROWER');
    const auth = { authorization: `Bearer ${app.jwt.sign({ sub: user.id, role: 'ROLE_GROWER' })}` };
    const tokenBody = {
      token: 't',
      email: 'a@b.bj',
      password: 'Good#Pass1',
      confirmPassword: 'Good#Pass1',
    };
    const cases = [
      { url: '/api/users/reset-password', payload: tokenBody, max: ATTEMPT.perIp.max },
      { url: '/api/users/validation/signup', payload: tokenBody, max: ATTEMPT.perIp.max },
      {
        url: '/api/users/invitation/resend',
        payload: { email: 'a@b.bj' },
        max: MAIL.perSubject.max,
      },
      {
        url: '/api/users/me/password',
        payload: {
          oldPassword: 'Wrong#1x',
          newPassword: 'Good#Pass1',
          confirmPassword: 'Good#Pass1',
        },
        headers: auth,
        max: ATTEMPT.perIp.max,
      },
    ];
    for (const { max, ...c } of cases) {
      const statuses: number[] = [];
      for (let i = 0; i <= max; i++) {
        statuses.push(
          (await app.inject({ method: 'POST', ...c, remoteAddress: '10.7.0.1' })).statusCode,
        );
      }
      expect(statuses.slice(0, max), c.url).not.toContain(429);
      expect(statuses[max], c.url).toBe(429);
    }
    await app.close();
  });
});

describe('public registration is limited per IP and per target address', () => {
  const testDb = useTestDatabase<Database>();
  let phone = 97_100_000;
  const register = (app: FastifyInstance, email: string, remoteAddress: string) =>
    app.inject({
      method: 'POST',
      url: '/api/users/invitation/signup?typeUser=cluster-manager',
      payload: { firstname: 'Awa', lastname: 'Dossou', email, phone: String(++phone) },
      remoteAddress,
    });

  it('one address registered again and again from many IPs: 409, then 429 (no enumeration)', async () => {
    const app = await buildTestApp(testDb.db);
    const statuses: number[] = [];
    for (let i = 1; i <= MAIL.perSubject.max + 1; i++) {
      statuses.push((await register(app, 'deja.pris@exemple.bj', `10.11.0.${i}`)).statusCode);
    }
    expect(statuses).toEqual([201, ...Array(MAIL.perSubject.max - 1).fill(409), 429]);
    const blocked = await register(app, 'DEJA.PRIS@exemple.bj', '10.11.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe('Trop de tentatives. Réessayez dans 60 minutes.');
    expect(blocked.json()).not.toHaveProperty('reason');
    await app.close();
  });

  it('many addresses from one IP: 10 an hour, then 429; another IP still registers', async () => {
    const app = await buildTestApp(testDb.db);
    const statuses: number[] = [];
    for (let i = 1; i <= MAIL.perIp.max + 1; i++) {
      statuses.push((await register(app, `inscrit${i}@exemple.bj`, '10.12.0.1')).statusCode);
    }
    expect(statuses).toEqual([...Array(MAIL.perIp.max).fill(201), 429]);
    expect((await register(app, 'autre@exemple.bj', '10.12.0.2')).statusCode).toBe(201);
    await app.close();
  });

  it('an administrator creating internal users (typeUser=user) is not limited', async () => {
    const app = await buildTestApp(testDb.db);
    const admin = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN');
    const headers = {
      authorization: `Bearer ${app.jwt.sign({ sub: admin.id, role: 'ROLE_SUPER_ADMIN' })}`,
    };
    for (let i = 1; i <= MAIL.perIp.max + 2; i++) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/users/invitation/signup?typeUser=user',
        headers,
        payload: {
          firstname: 'Koffi',
          lastname: 'Agbo',
          email: `agent${i}@exemple.bj`,
          phone: String(++phone),
          roleCode: 'ROLE_ADMIN',
        },
        remoteAddress: '10.13.0.1',
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    await app.close();
  });
});

describeWithRedis('attempt limits shared through Redis', (redisUrl) => {
  const testDb = useTestDatabase<Database>();
  const clients: Redis[] = [];
  const client = (url = redisUrl) => {
    const redis = new Redis(url, { maxRetriesPerRequest: 1 });
    clients.push(redis);
    return redis;
  };
  afterAll(() => clients.forEach((c) => c.disconnect()));
  const noPushes = { pushes: { subscribe: () => () => undefined, close: async () => undefined } };

  it('two API instances on one Redis share the per-IP and per-account counters', async () => {
    const [a, b] = await Promise.all([
      buildTestApp(testDb.db, { redis: client(), realtime: noPushes }),
      buildTestApp(testDb.db, { redis: client(), realtime: noPushes }),
    ]);
    const ip = freshIp();
    const byIp: number[] = [];
    for (let i = 0; i <= ATTEMPT.perIp.max; i++) {
      const app = i % 2 ? b : a;
      byIp.push((await loginAttempt(app, freshEmail('ip'), ip)).statusCode);
    }
    expect(byIp).toEqual([...Array(ATTEMPT.perIp.max).fill(401), 429]);

    const email = freshEmail('compte');
    const byAccount: number[] = [];
    for (let i = 0; i <= ATTEMPT.perSubject.max; i++) {
      const app = i % 2 ? b : a;
      byAccount.push((await loginAttempt(app, email, freshIp())).statusCode);
    }
    expect(byAccount).toEqual([...Array(ATTEMPT.perSubject.max).fill(401), 429]);
    expect(await client().exists(`${REDIS_PREFIX}attempt|ip|/api/auth/login|${ip}`)).toBe(1);
    await Promise.all([a.close(), b.close()]);
  });

  it('two API instances on one Redis: successes are given back, failures lock the account', async () => {
    const [a, b] = await Promise.all([
      buildTestApp(testDb.db, { redis: client(), realtime: noPushes }),
      buildTestApp(testDb.db, { redis: client(), realtime: noPushes }),
    ]);
    const user = await seedUser(testDb.db, 'ROLE_GROWER', { email: freshEmail('partage') });
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 2 * ATTEMPT.perSubject.max; i++) {
      const response = await (i % 2 ? b : a).inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: TEST_PASSWORD },
        remoteAddress: ip,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual(Array(2 * ATTEMPT.perSubject.max).fill(200));
    const guesses: number[] = [];
    for (let i = 0; i <= ATTEMPT.perSubject.max; i++) {
      guesses.push((await loginAttempt(i % 2 ? b : a, user.email, freshIp())).statusCode);
    }
    expect(guesses).toEqual([...Array(ATTEMPT.perSubject.max).fill(401), 429]);
    await Promise.all([a.close(), b.close()]);
  });

  it('while Redis does not answer, each process still limits (no 500)', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const down = new Redis(`redis://127.0.0.1:${closed}`, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    down.on('error', () => undefined);
    clients.push(down);
    const app = await buildTestApp(testDb.db, { redis: down, realtime: noPushes });
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i <= ATTEMPT.perIp.max; i++) {
      statuses.push((await loginAttempt(app, freshEmail('panne'), ip)).statusCode);
    }
    expect(statuses).toEqual([...Array(ATTEMPT.perIp.max).fill(401), 429]);
    await app.close();
  });
});
