import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../test-app.js';
import { startTestSmtp } from './mail/test-smtp.js';
import { seedUser, TEST_PASSWORD } from './test-support.js';
import type { Database } from '../database.js';

describe('registration and password links, mailed through a real SMTP server', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let superAdmin: { id: string; email: string };
  let ip = 0;

  const post = (url: string, payload?: Record<string, unknown>, headers = {}) =>
    app.inject({ method: 'POST', url, payload, headers, remoteAddress: `10.2.0.${++ip}` });
  const login = (email: string, password: string) => post('/api/auth/login', { email, password });

  beforeAll(async () => {
    smtp = await startTestSmtp();
    app = await buildTestApp(testDb.db, {
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://filiere.test' },
    });
    superAdmin = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN');
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it('register → mail → follow the link → set password → 406 → super admin activates → 200', async () => {
    const email = 'nouvel.agregateur@exemple.bj';
    const registered = await post('/api/users/invitation/signup?typeUser=industrial', {
      firstname: 'Awa',
      lastname: 'Dossou',
      email,
      phone: '97 00 00 42',
      ifu: '3201234567890',
      denomination: 'Ananas Bio SARL',
    });
    expect(registered.statusCode).toBe(201);
    const user = registered.json();
    expect(user).toMatchObject({
      email,
      phone: '+2290197000042',
      isActive: false,
      role: { code: 'ROLE_INDUSTRIAL', name: 'Agrégateur' },
      organization: { denomination: 'Ananas Bio SARL', organizationType: 'INDUSTRIAL' },
    });
    expect(user).not.toHaveProperty('password_hash');
    expect(user.walletId).toMatch(/^[0-9a-f-]{36}$/);

    const link = await smtp.linkTo(email, '/auth/signup-invitation');
    expect(link.origin).toBe('http://filiere.test');
    expect(link.searchParams.get('r')).toBe(email);
    const token = link.searchParams.get('t')!;

    const mismatch = await post('/api/users/validation/signup', {
      token,
      email,
      password: 'Ananas#2026',
      confirmPassword: 'Ananas#2027',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().fields.confirmPassword).toBe(
      'Les deux mots de passe ne sont pas identiques',
    );

    const set = await post('/api/users/validation/signup', {
      token,
      email,
      password: 'Ananas#2026',
      confirmPassword: 'Ananas#2026',
    });
    expect(set.statusCode).toBe(200);
    // Self-registered: the page is told the account waits for its activation.
    expect(set.json()).toEqual({ message: 'Mot de passe défini avec succès', active: false });

    const inactive = await login(email, 'Ananas#2026');
    expect(inactive.statusCode).toBe(406);
    expect(inactive.json().message).toBe("Votre compte n'a pas encore été activé");

    const admin = {
      authorization: `Bearer ${app.jwt.sign({ sub: superAdmin.id, role: 'ROLE_SUPER_ADMIN' })}`,
    };
    const count = await app.inject({ url: '/api/users/count-inactives', headers: admin });
    expect(count.json()).toEqual({ count: 1 });
    const toggled = await app.inject({
      url: `/api/users/activate-account/${user.id}`,
      headers: admin,
    });
    expect(toggled.json().isActive).toBe(true);

    const ok = await login(email, 'Ananas#2026');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ id: user.id, role: { code: 'ROLE_INDUSTRIAL' } });
    const me = await app.inject({
      url: '/api/users/me',
      headers: { authorization: `Bearer ${ok.json().access_token}` },
    });
    expect(me.json().id).toBe(user.id);
    expect(ok.json().user).toEqual(me.json());

    // The link is single use.
    const again = await post('/api/users/validation/signup', {
      token,
      email,
      password: 'Autre#2026',
      confirmPassword: 'Autre#2026',
    });
    expect(again.statusCode).toBe(403);
    expect(again.json().message).toBe("Le token est invalide.Contactez l'administrateur.");
  });

  it('resend replaces the invitation link; the old one stops working', async () => {
    const email = 'sfd.nouveau@exemple.bj';
    await post('/api/users/invitation/signup?typeUser=sfd', {
      firstname: 'Jean',
      lastname: 'Houngbo',
      email,
      phone: '0161000000',
    });
    const first = await smtp.linkTo(email, '/auth/signup-invitation');
    const before = smtp.messages.length;
    expect((await post('/api/users/invitation/resend', { email })).statusCode).toBe(200);
    expect(smtp.messages.length).toBe(before + 1);
    const second = await smtp.linkTo(email, '/auth/signup-invitation');
    expect(second.searchParams.get('t')).not.toBe(first.searchParams.get('t'));
    const body = (t: string) => ({
      token: t,
      email,
      password: 'Sfd#20266',
      confirmPassword: 'Sfd#20266',
    });
    expect(
      (await post('/api/users/validation/signup', body(first.searchParams.get('t')!))).statusCode,
    ).toBe(403);
    expect(
      (await post('/api/users/validation/signup', body(second.searchParams.get('t')!))).statusCode,
    ).toBe(200);
    // Nothing pending any more: resend answers 200 and mails nothing.
    const after = smtp.messages.length;
    expect((await post('/api/users/invitation/resend', { email })).statusCode).toBe(200);
    expect(
      (await post('/api/users/invitation/resend', { email: 'inconnu@exemple.bj' })).statusCode,
    ).toBe(200);
    expect(smtp.messages.length).toBe(after);
  });

  it('password reset: mail, new password, single use, expiry, another e-mail refused', async () => {
    const user = await seedUser(testDb.db, 'ROLE_GROWER', { email: 'producteur.reset@exemple.bj' });
    expect((await post(`/api/users/forgot-password/${user.email}`)).statusCode).toBe(200);
    const link = await smtp.linkTo(user.email, '/auth/change-password');
    const token = link.searchParams.get('t')!;
    const body = (email: string, t = token) => ({
      token: t,
      email,
      password: 'Nouveau#2026',
      confirmPassword: 'Nouveau#2026',
    });
    expect((await post('/api/users/reset-password', body('autre@exemple.bj'))).statusCode).toBe(
      403,
    );
    expect((await post('/api/users/reset-password', body(user.email))).statusCode).toBe(200);
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login(user.email, 'Nouveau#2026')).statusCode).toBe(200);
    expect((await post('/api/users/reset-password', body(user.email))).statusCode).toBe(403);

    // An expired link is refused.
    await post(`/api/users/forgot-password/${user.email}`);
    const late = (await smtp.linkTo(user.email, '/auth/change-password')).searchParams.get('t')!;
    expect(late).not.toBe(token);
    await testDb.db
      .updateTable('user_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('used_at', 'is', null)
      .execute();
    expect((await post('/api/users/reset-password', body(user.email, late))).statusCode).toBe(403);

    // Unknown addresses answer the same and mail nothing.
    const before = smtp.messages.length;
    expect((await post('/api/users/forgot-password/personne@exemple.bj')).statusCode).toBe(200);
    expect(smtp.messages.length).toBe(before);
  });

  it('internal creation by a super admin: active account, same set-password link', async () => {
    const admin = {
      authorization: `Bearer ${app.jwt.sign({ sub: superAdmin.id, role: 'ROLE_SUPER_ADMIN' })}`,
    };
    const created = await post(
      '/api/users/invitation/signup?typeUser=user',
      {
        firstname: 'Marc',
        lastname: 'Zinsou',
        email: 'marc.admin@exemple.bj',
        phone: '66000000',
        roleId: 2,
      },
      admin,
    );
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ isActive: true, role: { code: 'ROLE_ADMIN' } });
    const link = await smtp.linkTo('marc.admin@exemple.bj', '/auth/signup-invitation');
    const password = 'Marc#20266';
    const set = await post('/api/users/validation/signup', {
      token: link.searchParams.get('t'),
      email: 'marc.admin@exemple.bj',
      password,
      confirmPassword: password,
    });
    expect(set.statusCode).toBe(200);
    // Created active by an administrator: the page says it may sign in now.
    expect(set.json()).toEqual({ message: 'Mot de passe défini avec succès', active: true });
    expect((await login('marc.admin@exemple.bj', password)).statusCode).toBe(200);
  });
});
