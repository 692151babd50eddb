import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beninYear, useTestDatabase } from '@filiere/platform/testing';
import type { RoleCode } from '../http/auth.js';
import { buildTestApp } from '../test-app.js';
import { WalletEvents } from '../wallet/http/queries/test-events.js';
import { seedCluster, seedUser, TEST_PASSWORD } from './test-support.js';
import type { Database } from '../database.js';

/**
 * The calls of the original client, as it sends them (platform-and-wallet.md §7): each must
 * answer as the spec says.
 */
describe('the original client’s calls', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let clusterId: string;
  let ip = 0;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    clusterId = await seedCluster(testDb.db, 'Cluster Client');
  });
  afterAll(async () => app?.close());

  const tokenVersion = async (id: string) =>
    (
      await testDb.db
        .selectFrom('users')
        .select('token_version')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).token_version as number;
  const as = async (user: { id: string }, role: RoleCode) => ({
    authorization: `Bearer ${app.jwt.sign({ sub: user.id, role, tv: await tokenVersion(user.id) })}`,
  });
  const call = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      headers,
      ...(payload ? { payload } : {}),
      remoteAddress: `10.16.${Math.floor(ip / 250)}.${(ip++ % 250) + 1}`,
    });

  /** The token of the last link mailed to `email` (outbox: no SMTP_URL in tests). */
  async function linkToken(email: string): Promise<string> {
    const mail = await testDb.db
      .selectFrom('outbox')
      .select('text')
      .where('recipient', '=', email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return new URL(mail.text.match(/https?:\/\/\S+/)![0]).searchParams.get('t')!;
  }

  it('POST users/reset-password without confirmPassword: 200, the new password signs in', async () => {
    const user = await seedUser(testDb.db, 'ROLE_GROWER', { email: 'sans.confirmation@client.bj' });
    await call('POST', `/api/users/forgot-password/${user.email}`);
    const token = await linkToken(user.email);
    const reset = await call('POST', '/api/users/reset-password', {
      token,
      email: user.email,
      password: 'Nouveau#2026',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const login = await call('POST', '/api/auth/login', {
      email: user.email,
      password: 'Nouveau#2026',
    });
    expect(login.statusCode).toBe(200);
    // Sent, the confirmation must still match.
    await call('POST', `/api/users/forgot-password/${user.email}`);
    const mismatch = await call('POST', '/api/users/reset-password', {
      token: await linkToken(user.email),
      email: user.email,
      password: 'Nouveau#2027',
      confirmPassword: 'Autre#2027',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().fields.confirmPassword).toBe(
      'Les deux mots de passe ne sont pas identiques',
    );
  });

  it('POST users/validation/signup without confirmPassword: 200', async () => {
    const email = 'invitation.client@client.bj';
    const signup = await call('POST', '/api/users/invitation/signup?typeUser=sfd', {
      firstname: 'Grâce',
      lastname: 'Kpadonou',
      email,
      phone: '97001122',
    });
    expect(signup.statusCode).toBe(201);
    const validation = await call('POST', '/api/users/validation/signup', {
      token: await linkToken(email),
      email,
      password: 'Alafia#2026',
    });
    expect(validation.statusCode, validation.body).toBe(200);
  });

  it('phones as 229XXXXXXXX (229 + 8 or 10 digits) and +229…: stored as E.164', async () => {
    const cases: [string, string][] = [
      ['22997000011', '+2290197000011'],
      ['2290197000012', '+2290197000012'],
      ['229 97 00 00 13', '+2290197000013'],
      ['+22997000014', '+2290197000014'],
      ['+2290197000015', '+2290197000015'],
    ];
    for (const [i, [phone, stored]] of cases.entries()) {
      const res = await call('POST', '/api/users/invitation/signup?typeUser=cluster-manager', {
        firstname: 'Fidèle',
        lastname: 'Zinsou',
        email: `tel.${i}@client.bj`,
        phone,
      });
      expect(res.statusCode, `${phone}: ${res.body}`).toBe(201);
      expect(res.json().phone, phone).toBe(stored);
    }
    // 229 followed by 9 or 11 digits, or a 10-digit number not starting 01: still refused.
    for (const phone of ['229970000111', '22901970000111', '2290297000011']) {
      const res = await call('POST', '/api/users/invitation/signup?typeUser=cluster-manager', {
        firstname: 'Fidèle',
        lastname: 'Zinsou',
        email: `tel.bad.${phone}@client.bj`,
        phone,
      });
      expect(res.statusCode, phone).toBe(400);
      expect(res.json().fields.phone).toBeTruthy();
    }
    // The owner's own change, as the original profile sends it.
    const user = await seedUser(testDb.db, 'ROLE_GROWER');
    const own = await call(
      'PATCH',
      `/api/users/${user.id}`,
      { phone: '22966000016', currentPassword: TEST_PASSWORD },
      await as(user, 'ROLE_GROWER'),
    );
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().phone).toBe('+2290166000016');
  });

  it('the owner’s own PATCH users/{id}, every role: its allowed fields, no others', async () => {
    for (const role of ['ROLE_GROWER', 'ROLE_INDUSTRIAL', 'ROLE_SECRETARY', 'ROLE_SFD'] as const) {
      const user = await seedUser(testDb.db, role, { clusterId });
      const headers = await as(user, role);
      const names = await call(
        'PATCH',
        `/api/users/${user.id}`,
        { firstname: 'Basile', lastname: 'Ahouandjinou' },
        headers,
      );
      expect(names.statusCode, `${role}: ${names.body}`).toBe(200);
      expect(names.json()).toMatchObject({ firstname: 'Basile', lastname: 'Ahouandjinou' });
      // Its payout account with its current password; without, 400 on currentPassword.
      const momo = await call(
        'PATCH',
        `/api/users/${user.id}`,
        { momoAccountNumber: '0166778899' },
        headers,
      );
      expect(momo.statusCode).toBe(400);
      expect(momo.json().fields.currentPassword).toBeTruthy();
      const withPassword = await call(
        'PATCH',
        `/api/users/${user.id}`,
        { momoAccountNumber: '0166778899', currentPassword: TEST_PASSWORD },
        headers,
      );
      expect(withPassword.statusCode).toBe(200);
      // The client sends the user back whole: unchanged fields need no permission.
      const whole = await call(
        'PATCH',
        `/api/users/${user.id}`,
        { ...withPassword.json(), roleId: String(withPassword.json().roleId) },
        headers,
      );
      expect(whole.statusCode, whole.body).toBe(200);
      // Never its own role, cluster or organisation.
      const ownRole = await call('PATCH', `/api/users/${user.id}`, { roleId: 1 }, headers);
      expect(ownRole.statusCode).toBe(403);
      expect(ownRole.json()).toMatchObject({
        reason: 'FIELD_RULE',
        message: 'Vous ne pouvez pas modifier votre propre rôle',
      });
      const ownCluster = await call('PATCH', `/api/users/${user.id}`, { clusterId: '' }, headers);
      expect(ownCluster.statusCode).toBe(403);
    }
    // Another user: 403, nothing changed.
    const grower = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId });
    const other = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId });
    const refused = await call(
      'PATCH',
      `/api/users/${other.id}`,
      { firstname: 'Pirate' },
      await as(grower, 'ROLE_GROWER'),
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Cet utilisateur n’est pas dans votre périmètre');
  });

  it('GET wallet/stats/{userId}/{year} with a user id: that user’s wallet stats', async () => {
    const owner = await seedUser(testDb.db, 'ROLE_INDUSTRIAL', { clusterId });
    const stranger = await seedUser(testDb.db, 'ROLE_INDUSTRIAL', { clusterId });
    const admin = await seedUser(testDb.db, 'ROLE_ADMIN');
    const walletId = (
      await testDb.db
        .selectFrom('users')
        .select('wallet_id')
        .where('id', '=', owner.id)
        .executeTakeFirstOrThrow()
    ).wallet_id as string;
    await new WalletEvents(testDb.db)
      .open(walletId, owner.id)
      .supply(walletId, owner.id, 'SUP-CLIENT', 25_000)
      .commit();
    // Benin's year: the stats count months in Benin time (UTC+1), a new year an hour early.
    const year = beninYear();
    const byUser = await call(
      'GET',
      `/api/wallet/stats/${owner.id}/${year}`,
      undefined,
      await as(owner, 'ROLE_INDUSTRIAL'),
    );
    expect(byUser.statusCode, byUser.body).toBe(200);
    const stats = byUser.json();
    expect(stats).toMatchObject({ walletId, year, balance: 25_000, lastTransactionAmout: 25_000 });
    expect(stats.paiementStats.reduce((a: number, b: number) => a + b, 0)).toBe(1);
    // The same answer by wallet id.
    const byWallet = await call(
      'GET',
      `/api/wallet/stats/${walletId}/${year}`,
      undefined,
      await as(owner, 'ROLE_INDUSTRIAL'),
    );
    expect(byWallet.json()).toEqual(stats);
    // Someone else's user id: 403; an admin: 200.
    expect(
      (
        await call(
          'GET',
          `/api/wallet/stats/${owner.id}/${year}`,
          undefined,
          await as(stranger, 'ROLE_INDUSTRIAL'),
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await call(
          'GET',
          `/api/wallet/stats/${owner.id}/${year}`,
          undefined,
          await as(admin, 'ROLE_ADMIN'),
        )
      ).json(),
    ).toEqual(stats);
  });
});

/**
 * The set-password pages check their link when they open: a link killed by
 * a newer mail, used or expired says so before the user types a password.
 */
describe('POST /users/link/check: is an invitation or reset link still good, without spending it', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let ip = 0;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
  });
  afterAll(async () => app?.close());

  const post = (url: string, payload: Record<string, unknown>, remoteAddress?: string) =>
    app.inject({
      method: 'POST',
      url,
      payload,
      remoteAddress: remoteAddress ?? `10.17.${Math.floor(ip / 250)}.${(ip++ % 250) + 1}`,
    });
  async function linkToken(email: string): Promise<string> {
    const mail = await testDb.db
      .selectFrom('outbox')
      .select('text')
      .where('recipient', '=', email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return new URL(mail.text.match(/https?:\/\/\S+/)![0]).searchParams.get('t')!;
  }
  const check = async (token: string, email: string, type: 'INVITATION' | 'RESET') => {
    const res = await post('/api/users/link/check', { token, email, type });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().valid as boolean;
  };

  it('a resent invitation kills the first link; the check spends nothing; a used link is dead', async () => {
    const email = 'lien.mort@client.bj';
    await post('/api/users/invitation/signup?typeUser=cluster-manager', {
      firstname: 'Fidèle',
      lastname: 'Zinsou',
      email,
      phone: '97001133',
    });
    const first = await linkToken(email);
    expect(await check(first, email, 'INVITATION')).toBe(true);
    expect(await check(first, email, 'INVITATION')).toBe(true); // not spent by the check
    expect(await check(first, email, 'RESET')).toBe(false); // another kind
    expect(await check(first, 'autre@client.bj', 'INVITATION')).toBe(false);
    await post('/api/users/invitation/resend', { email });
    const second = await linkToken(email);
    expect(second).not.toBe(first);
    expect(await check(first, email, 'INVITATION')).toBe(false);
    expect(await check(second, email, 'INVITATION')).toBe(true);
    const set = await post('/api/users/validation/signup', {
      token: second,
      email,
      password: 'Cluster#2026',
      confirmPassword: 'Cluster#2026',
    });
    expect(set.statusCode).toBe(200);
    expect(await check(second, email, 'INVITATION')).toBe(false);
  });

  it('an expired reset link is dead; bad input is a 400; over 10 checks a minute from one address, 429', async () => {
    const user = await seedUser(testDb.db, 'ROLE_GROWER', { email: 'lien.expire@client.bj' });
    await post(`/api/users/forgot-password/${user.email}`, {});
    const token = await linkToken(user.email);
    expect(await check(token, user.email, 'RESET')).toBe(true);
    await testDb.db
      .updateTable('user_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.id)
      .execute();
    expect(await check(token, user.email, 'RESET')).toBe(false);
    const bad = await post('/api/users/link/check', { token: '', email: 'x', type: 'AUTRE' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['email', 'token', 'type']);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await post(
        '/api/users/link/check',
        { token: `t${i}`, email: `x${i}@client.bj`, type: 'RESET' },
        '10.18.0.1',
      );
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
