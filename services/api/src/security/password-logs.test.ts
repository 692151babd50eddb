import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions, type Logger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { startTestSmtp } from '../identity/mail/test-smtp.js';
import { bearer, seedUser } from '../identity/test-support.js';
import { buildTestApp } from '../test-app.js';
import type { Database } from '../database.js';

/** Every line the app logs, at the most verbose level, with the production options. */
function bufferLogger(): { logger: Logger; text: () => string } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { logger: pino(loggerOptions('trace', false), sink), text: () => chunks.join('') };
}

describe('passwords, mailed tokens and access tokens never reach the log', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let log: ReturnType<typeof bufferLogger>;
  let ip = 0;
  const secrets: string[] = [];

  const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload, headers, remoteAddress: `10.3.0.${++ip}` });

  beforeAll(async () => {
    smtp = await startTestSmtp();
    log = bufferLogger();
    app = await buildTestApp(testDb.db, {
      logger: log.logger,
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://filiere.test', LOG_LEVEL: 'trace' },
    });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it('sign-up, invitation, activation, sign-in, password change and reset', async () => {
    const email = 'journal.secret@exemple.bj';
    const first = 'Premier#Secret1';
    const second = 'Deuxieme#Secret2';
    const third = 'Troisieme#Secret3';
    const wrong = 'Mauvais#Secret4';
    secrets.push(first, second, third, wrong);

    const signup = await post('/api/users/invitation/signup?typeUser=industrial', {
      firstname: 'Awa',
      lastname: 'Dossou',
      email,
      phone: '97 00 00 43',
      ifu: '3201234567891',
      denomination: 'Journal SARL',
    });
    expect(signup.statusCode).toBe(201);
    const invitation = (await smtp.linkTo(email, '/auth/signup-invitation')).searchParams.get('t')!;
    secrets.push(invitation);
    const set = await post('/api/users/validation/signup', {
      token: invitation,
      email,
      password: first,
      confirmPassword: first,
    });
    expect(set.statusCode).toBe(200);

    const superAdmin = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN');
    const activate = await app.inject({
      method: 'GET',
      url: `/api/users/activate-account/${signup.json().id}`,
      headers: bearer(app, superAdmin, 'ROLE_SUPER_ADMIN'),
    });
    expect(activate.statusCode).toBe(200);

    expect((await post('/api/auth/login', { email, password: wrong })).statusCode).toBe(401);
    const login = await post('/api/auth/login', { email, password: first });
    expect(login.statusCode).toBe(200);
    const access = JSON.stringify(login.json()).match(/eyJ[\w-]+\.[\w-]+\.[\w-]+/)![0];
    secrets.push(access);

    const change = await post(
      '/api/users/me/password',
      { oldPassword: first, newPassword: second, confirmPassword: second },
      { authorization: `Bearer ${access}` },
    );
    expect(change.statusCode).toBe(200);
    // A refused change (wrong old password) and a malformed body carry passwords too.
    await post(
      '/api/users/me/password',
      { oldPassword: wrong, newPassword: third, confirmPassword: third },
      { authorization: `Bearer ${access}` },
    );
    await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":"${email}","password":"${wrong}"`,
    });

    expect((await post(`/api/users/forgot-password/${email}`)).statusCode).toBe(200);
    const reset = (await smtp.linkTo(email, '/auth/change-password')).searchParams.get('t')!;
    secrets.push(reset);
    const done = await post('/api/users/reset-password', {
      token: reset,
      email,
      password: third,
      confirmPassword: third,
    });
    expect(done.statusCode).toBe(200);
    expect((await post('/api/auth/login', { email, password: third })).statusCode).toBe(200);
  });

  it('the log has a line per request and none of the secrets', () => {
    const text = log.text();
    expect(text).toContain('/api/auth/login');
    expect(text.split('\n').length).toBeGreaterThan(10);
    for (const secret of secrets) expect(text.includes(secret), secret.slice(0, 12)).toBe(false);
    // Nor the hashes stored for them.
    expect(text).not.toMatch(/\$argon2/);
  });
});
