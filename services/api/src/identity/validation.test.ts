import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../test-app.js';
import { seedUser } from './test-support.js';
import type { Database } from '../database.js';

const HUGE = 'x'.repeat(10 * 1024);
const valid = {
  firstname: 'Awa',
  lastname: 'Dossou',
  email: 'awa@exemple.bj',
  phone: '97000000',
  ifu: '3201234567890',
  denomination: 'Ananas SA',
};

describe('identity input validation: 400 with French field messages, never 500', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let auth: Record<string, string>;
  let ip = 0;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    const admin = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN');
    auth = { authorization: `Bearer ${app.jwt.sign({ sub: admin.id, role: 'ROLE_SUPER_ADMIN' })}` };
  });
  afterAll(async () => app?.close());

  async function send(method: 'POST' | 'PATCH' | 'GET', url: string, payload?: unknown) {
    const response = await app.inject({
      method,
      url,
      payload: payload as any,
      headers: auth,
      remoteAddress: `10.3.${Math.floor(ip / 250)}.${(ip++ % 250) + 1}`,
    });
    return { status: response.statusCode, body: response.json() };
  }

  const signup = (body: unknown) =>
    send('POST', '/api/users/invitation/signup?typeUser=industrial', body);

  it('missing fields: "Ce champ est obligatoire" per field', async () => {
    const { status, body } = await signup({});
    expect(status).toBe(400);
    for (const field of ['firstname', 'lastname', 'email', 'phone']) {
      expect(body.fields[field]).toBe('Ce champ est obligatoire');
    }
    const blank = await signup({ ...valid, firstname: '   ' });
    expect(blank.body.fields.firstname).toBe('Ce champ est obligatoire');
  });

  it('industrial without IFU or denomination: 400 on that field', async () => {
    const { status, body } = await signup({ ...valid, ifu: undefined });
    expect(status).toBe(400);
    expect(body.fields).toEqual({ ifu: 'Ce champ est obligatoire' });
  });

  it('wrong types and a bad e-mail', async () => {
    const { status, body } = await signup({ ...valid, firstname: 42, email: 'pas-un-mail' });
    expect(status).toBe(400);
    expect(body.fields.firstname).toBeTruthy();
    expect(body.fields.email).toBe('Adresse mail invalide');
    expect((await signup([1, 2])).status).toBe(400);
  });

  it('phones: 7 and 11 digits refused; 8 digits and 01 + 8 digits stored as E.164', async () => {
    for (const phone of ['9700000', '97000000000', '0297000000', 'abcdefgh', '']) {
      const { status, body } = await signup({ ...valid, phone });
      expect(status, phone).toBe(400);
      expect(body.fields.phone).toBeTruthy();
    }
    const eight = await signup({ ...valid, email: 'p8@exemple.bj', phone: '97000000' });
    expect(eight.body.phone).toBe('+2290197000000');
    const ten = await signup({ ...valid, email: 'p10@exemple.bj', phone: '+229 01 66 00 00 00' });
    expect(ten.body.phone).toBe('+2290166000000');
  });

  it('10 kB strings in every text field: 400, never 500', async () => {
    for (const field of [
      'firstname',
      'lastname',
      'email',
      'phone',
      'ifu',
      'denomination',
      'username',
    ]) {
      const { status, body } = await signup({ ...valid, [field]: HUGE });
      expect(status, field).toBe(400);
      expect(body.fields[field], field).toBeTruthy();
    }
    expect((await send('POST', '/api/auth/login', { email: HUGE, password: HUGE })).status).toBe(
      400,
    );
    expect((await send('GET', `/api/users?q=${HUGE}`)).status).toBe(400);
    expect((await send('GET', `/api/users?roles=${HUGE}`)).status).toBe(400);
  });

  it('weak passwords: "Mot de passe invalide"', async () => {
    for (const password of [
      'Court#1',
      'sansmajuscule#1',
      'SansChiffre#',
      'SansSpecial1',
      'x'.repeat(200),
    ]) {
      const { status, body } = await send('POST', '/api/users/reset-password', {
        token: 't',
        email: 'a@exemple.bj',
        password,
        confirmPassword: password,
      });
      expect(status, password).toBe(400);
      expect(body.fields.password, password).toBeTruthy();
    }
    const { body } = await send('POST', '/api/users/me/password', {
      oldPassword: 'x',
      newPassword: 'faible',
      confirmPassword: 'faible',
    });
    expect(body.fields.newPassword).toBe('Mot de passe invalide');
  });

  it('bad query and path values: 400', async () => {
    for (const url of [
      '/api/users?page=0',
      '/api/users?limit=0',
      '/api/users?limit=abc',
      '/api/users?roles=ROLE_NOPE',
      '/api/users/not-a-uuid',
      '/api/users/cluster/123',
      '/api/users/activate-account/xyz',
    ]) {
      expect((await send('GET', url)).status, url).toBe(400);
    }
    expect((await send('POST', '/api/users/invitation/signup?typeUser=admin', valid)).status).toBe(
      400,
    );
    expect((await send('POST', '/api/users/forgot-password/pas-un-mail')).status).toBe(400);
    expect((await send('PATCH', '/api/users/me/email', { email: 'faux' })).body.fields.email).toBe(
      'Adresse mail invalide',
    );
    expect(
      (
        await send('PATCH', `/api/users/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, {
          roleId: 99,
        })
      ).status,
    ).toBe(400);
  });

  it('internal creation with unknown references: 400 on the field', async () => {
    const base = { ...valid, email: 'ref@exemple.bj', roleCode: 'ROLE_GROWER' };
    const missingOrg = await send('POST', '/api/users/invitation/signup?typeUser=user', {
      ...base,
      organizationId: '00000000-0000-4000-8000-000000000000',
    });
    expect(missingOrg.status).toBe(400);
    expect(missingOrg.body.fields.organizationId).toBeTruthy();
    const noRole = await send('POST', '/api/users/invitation/signup?typeUser=user', {
      ...base,
      roleCode: undefined,
    });
    expect(noRole.status).toBe(400);
    expect(noRole.body.fields.roleId).toBe('Ce champ est obligatoire');
  });
});
