import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../test-app.js';
import { RATE_LIMIT, TOO_MANY } from './http/rate-limit.js';
import { seedUser, TEST_PASSWORD } from './test-support.js';

describe('attempt limits on sign-in and password routes', () => {
  const testDb = useTestDatabase();

  it('login: the 11th attempt in a minute from one IP answers 429, other IPs still pass', async () => {
    const app = await buildTestApp(testDb.db);
    const user = await seedUser(testDb.db, 'ROLE_GROWER');
    const attempt = (remoteAddress: string, email: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: 'Wrong#Pass1' },
        remoteAddress,
      });
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMIT.max; i++) {
      statuses.push((await attempt('10.5.0.1', `x${i}@exemple.bj`)).statusCode);
    }
    expect(statuses.slice(0, RATE_LIMIT.max).every((s) => s === 401)).toBe(true);
    const blocked = await attempt('10.5.0.1', user.email);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(TOO_MANY);
    const other = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
      remoteAddress: '10.5.0.2',
    });
    expect(other.statusCode).toBe(200);
    await app.close();
  });

  it('per e-mail: 10 attempts on one address from many IPs, then 429', async () => {
    const app = await buildTestApp(testDb.db);
    const statuses: number[] = [];
    for (let i = 1; i <= RATE_LIMIT.max + 1; i++) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/users/forgot-password/cible@exemple.bj',
        remoteAddress: `10.6.0.${i}`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([...Array(RATE_LIMIT.max).fill(200), 429]);
    await app.close();
  });

  it('reset, validation, resend and password change are limited too', async () => {
    const app = await buildTestApp(testDb.db);
    const user = await seedUser(testDb.db, 'ROLE_GROWER');
    const auth = { authorization: `Bearer ${app.jwt.sign({ sub: user.id, role: 'ROLE_GROWER' })}` };
    const cases = [
      {
        url: '/api/users/reset-password',
        payload: {
          token: 't',
          email: 'a@b.bj',
          password: 'Good#Pass1',
          confirmPassword: 'Good#Pass1',
        },
      },
      {
        url: '/api/users/validation/signup',
        payload: {
          token: 't',
          email: 'a@b.bj',
          password: 'Good#Pass1',
          confirmPassword: 'Good#Pass1',
        },
      },
      { url: '/api/users/invitation/resend', payload: { email: 'a@b.bj' } },
      {
        url: '/api/users/me/password',
        payload: {
          oldPassword: 'Wrong#1x',
          newPassword: 'Good#Pass1',
          confirmPassword: 'Good#Pass1',
        },
        headers: auth,
      },
    ];
    for (const c of cases) {
      let last = 0;
      for (let i = 0; i <= RATE_LIMIT.max; i++) {
        last = (await app.inject({ method: 'POST', ...c, remoteAddress: '10.7.0.1' })).statusCode;
      }
      expect(last, c.url).toBe(429);
    }
    await app.close();
  });
});
