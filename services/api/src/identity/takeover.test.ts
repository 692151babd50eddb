import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import type { RoleCode } from '../http/auth.js';
import { buildTestApp } from '../test-app.js';
import {
  fund,
  walletState,
  walletUser,
  withKey,
  type TestUser,
} from '../wallet/http/commands/test-support.js';
import { userStreamId } from './catalogue.js';
import { RULE_MESSAGES } from './field-rules.js';
import { seedCluster, seedUser, TEST_PASSWORD } from './test-support.js';
import type { Database } from '../database.js';

/**
 * A cluster manager (or an admin) must not take over a wallet in its reach by changing the
 * user's e-mail (then asking a reset link to the new address) or its payout account: field
 * rules (field-rules.ts) keep e-mail, phone and payout accounts to their owner, with the
 * current password.
 */
describe('account takeover through user edits', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let clusterA: string;
  let clusterB: string;
  let superAdmin: TestUser;
  let admin: TestUser;
  let manager: TestUser;
  let ip = 0;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    clusterA = await seedCluster(testDb.db, 'Cluster Prise A');
    clusterB = await seedCluster(testDb.db, 'Cluster Prise B');
    superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    admin = await walletUser(app, testDb.db, 'ROLE_ADMIN');
    manager = await walletUser(app, testDb.db, 'ROLE_CLUSTER_MANAGER', { clusterId: clusterA });
  });
  afterAll(async () => app?.close());

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string> = {},
    payload?: Record<string, unknown>,
  ) =>
    app.inject({
      method,
      url,
      headers,
      ...(payload ? { payload } : {}),
      remoteAddress: `10.10.${Math.floor(ip / 250) % 250}.${(ip++ % 250) + 1}`,
    });

  const userRow = (id: string) =>
    testDb.db
      .selectFrom('users')
      .select(['email', 'momo_account_number', 'bank_account_number', 'phone', 'role_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  const mailsTo = async (to: string) =>
    (
      await testDb.db
        .selectFrom('outbox')
        .select(['subject', 'text'])
        .where('recipient', '=', to)
        .orderBy('id')
        .execute()
    ).map((m) => ({ subject: m.subject as string, text: m.text as string }));

  const eventsOf = async (userId: string) =>
    (await app.eventStore.readStream(userStreamId(userId))).map((e) => ({
      type: e.type,
      data: e.data as Record<string, unknown>,
      actor: e.metadata.userId,
    }));

  /**
   * The attack chain, step by step: the attacker changes the victim's e-mail to its own
   * mailbox, asks a reset link there, sets a password, signs in as the victim and empties the
   * wallet into its own. Answers what each step got.
   */
  async function takeover(attacker: TestUser, victim: TestUser) {
    const mailbox = `pirate.${Date.now()}.${ip}@exemple.bj`;
    const transcript: Record<string, unknown> = {};
    const patch = await call('PATCH', `/api/users/${victim.id}`, attacker.headers, {
      email: mailbox,
    });
    transcript.emailChange = patch.statusCode;
    await call('POST', `/api/users/forgot-password/${mailbox}`);
    const [mail] = await mailsTo(mailbox);
    transcript.resetLinkToAttacker = mail !== undefined;
    if (!mail) return transcript;
    const token = new URL(mail.text.match(/https?:\/\/\S+/)![0]).searchParams.get('t');
    const password = 'Pirate#2026';
    transcript.reset = (
      await call(
        'POST',
        '/api/users/reset-password',
        {},
        {
          token,
          email: mailbox,
          password,
          confirmPassword: password,
        },
      )
    ).statusCode;
    const login = await call('POST', '/api/auth/login', {}, { email: mailbox, password });
    transcript.signIn = login.statusCode;
    if (login.statusCode !== 200) return transcript;
    const stolen = { authorization: `Bearer ${login.json().access_token}` };
    const transfer = await app.inject({
      method: 'POST',
      url: '/api/wallet/make-transfer',
      headers: { ...withKey({ ...victim, headers: stolen }) },
      payload: {
        source: victim.walletId,
        destination: attacker.walletId,
        amount: 50_000,
        reason: 'Prise de compte',
      },
    });
    transcript.transfer = transfer.statusCode;
    return transcript;
  }

  it('the takeover chain (e-mail change → reset → sign-in → transfer) stops at its first step: 403', async () => {
    const victim = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { clusterId: clusterA });
    await fund(app, victim, superAdmin, 50_000);
    const before = await userRow(victim.id);

    // Before the fix this answered { emailChange: 200, resetLinkToAttacker: true, reset: 200,
    // signIn: 200, transfer: 201 }: the victim's 50,000 F CFA went to the attacker.
    expect(await takeover(manager, victim)).toEqual({
      emailChange: 403,
      resetLinkToAttacker: false,
    });
    expect(await takeover(admin, victim)).toEqual({ emailChange: 403, resetLinkToAttacker: false });

    expect((await userRow(victim.id)).email).toBe(before.email);
    expect((await walletState(app, victim.walletId)).balance).toBe(50_000);
    expect(await eventsOf(victim.id)).toEqual([]);
  });

  it('the refusal says why, in French', async () => {
    const victim = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { clusterId: clusterA });
    const res = await call('PATCH', `/api/users/${victim.id}`, manager.headers, {
      email: 'autre@exemple.bj',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(RULE_MESSAGES.ownerOnly);
  });

  it('the payout redirect (another user’s mobile money, bank account or phone) is refused: 403, nothing written', async () => {
    const victim = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', {
      clusterId: clusterA,
      bank: 'BJ0061010100',
    });
    const before = await userRow(victim.id);
    for (const attacker of [manager, admin, superAdmin]) {
      for (const body of [
        { momoAccountNumber: '0166000001' },
        { bankAccountNumber: 'BJ0099000001' },
        { phone: '0166000001' },
      ]) {
        const res = await call('PATCH', `/api/users/${victim.id}`, attacker.headers, body);
        expect(res.statusCode, `${attacker.role} ${Object.keys(body)[0]}`).toBe(403);
      }
    }
    // Growers and carriers, registered by staff, are no exception (four-eyes requests later).
    const grower = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId: clusterA });
    expect(
      (
        await call('PATCH', `/api/users/${grower.id}`, manager.headers, {
          momoAccountNumber: '0166000001',
        })
      ).statusCode,
    ).toBe(403);
    expect(await userRow(victim.id)).toEqual(before);
    expect(await eventsOf(victim.id)).toEqual([]);
    expect(await eventsOf(grower.id)).toEqual([]);
  });

  it('the owner changes its payout accounts with its current password: 400 without, 422 wrong, 200 right; the address on file is told', async () => {
    const owner = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { clusterId: clusterA });
    const email = (await userRow(owner.id)).email!; // walletUser gives every user an e-mail
    const url = '/api/users/me/momoAccountNumber';
    const missing = await call('PATCH', url, owner.headers, { momoAccountNumber: '0166000002' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields.currentPassword).toBe('Ce champ est obligatoire');
    const wrong = await call('PATCH', url, owner.headers, {
      momoAccountNumber: '0166000002',
      currentPassword: 'Pas#Le1Bon',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      message: 'Mot de passe actuel incorrect',
      fields: { currentPassword: 'Mot de passe actuel incorrect' },
    });
    expect((await userRow(owner.id)).momo_account_number).toBe('+2290197123456');
    expect(await mailsTo(email)).toEqual([]);

    const ok = await call('PATCH', url, owner.headers, {
      momoAccountNumber: '0166000002',
      currentPassword: TEST_PASSWORD,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().momoAccountNumber).toBe('0166000002');
    const bank = await call('PATCH', '/api/users/me/bankAccountNumber', owner.headers, {
      bankAccountNumber: 'BJ0061019999',
      currentPassword: TEST_PASSWORD,
    });
    expect(bank.json().bankAccountNumber).toBe('BJ0061019999');
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual([
      'Filière : compte de paiement modifié',
      'Filière : compte de paiement modifié',
    ]);
    expect(mails[0]!.text).toContain('Le numéro mobile money de votre compte Filière');
    expect(mails[0]!.text).toContain('••••0002');
    expect(mails[0]!.text).not.toContain('0166000002');
    expect(mails[1]!.text).toContain('Le numéro de compte bancaire');
  });

  it('the owner changes its e-mail with its current password; the OLD address gets the notice, the new one signs in', async () => {
    const owner = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { clusterId: clusterA });
    const old = (await userRow(owner.id)).email!;
    const next = `nouvelle.${Date.now()}@exemple.bj`;
    const wrong = await call('PATCH', '/api/users/me/email', owner.headers, {
      email: next,
      currentPassword: 'Pas#Le1Bon',
    });
    expect(wrong.statusCode).toBe(422);
    expect((await userRow(owner.id)).email).toBe(old);
    const ok = await call('PATCH', '/api/users/me/email', owner.headers, {
      email: next,
      currentPassword: TEST_PASSWORD,
    });
    expect(ok.statusCode).toBe(200);
    const [notice] = await mailsTo(old);
    expect(notice?.subject).toBe('Filière : adresse e-mail modifiée');
    expect(notice?.text).toContain(next);
    expect(await mailsTo(next)).toEqual([]);
    const login = await call(
      'POST',
      '/api/auth/login',
      {},
      { email: next, password: TEST_PASSWORD },
    );
    expect(login.statusCode).toBe(200);
  });

  it('an admin edits its own e-mail through PATCH /users/{id} with its current password; wrong → 422', async () => {
    const me = await seedUser(testDb.db, 'ROLE_ADMIN');
    const headers = { authorization: `Bearer ${app.jwt.sign({ sub: me.id, role: 'ROLE_ADMIN' })}` };
    const next = `admin.${Date.now()}@exemple.bj`;
    const wrong = await call('PATCH', `/api/users/${me.id}`, headers, {
      email: next,
      currentPassword: 'Pas#Le1Bon',
    });
    expect(wrong.statusCode).toBe(422);
    const ok = await call('PATCH', `/api/users/${me.id}`, headers, {
      email: next,
      currentPassword: TEST_PASSWORD,
    });
    expect(ok.json().email).toBe(next);
    expect((await mailsTo(me.email))[0]?.subject).toBe('Filière : adresse e-mail modifiée');
  });

  it('a form that sends every field unchanged (the admin’s user form) is no change: 200', async () => {
    const grower = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId: clusterA });
    const current = (await call('GET', `/api/users/${grower.id}`, manager.headers)).json();
    const res = await call('PATCH', `/api/users/${grower.id}`, manager.headers, {
      firstname: 'Renommé',
      lastname: current.lastname,
      email: current.email.toUpperCase(),
      phone: current.phone,
      roleId: current.roleId,
      clusterId: current.clusterId,
      momoAccountNumber: current.momoAccountNumber ?? '',
      bankAccountNumber: current.bankAccountNumber ?? '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().firstname).toBe('Renommé');
  });

  describe('roles', () => {
    const bearer = (user: { id: string }, role: RoleCode) => ({
      authorization: `Bearer ${app.jwt.sign({ sub: user.id, role })}`,
    });
    const roleOf = async (id: string) => (await userRow(id)).role_id;

    it('nobody changes its own role (self-promotion): 403', async () => {
      const cm = await seedUser(testDb.db, 'ROLE_CLUSTER_MANAGER', { clusterId: clusterA });
      const res = await call('PATCH', `/api/users/${cm.id}`, bearer(cm, 'ROLE_CLUSTER_MANAGER'), {
        roleId: 2,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(RULE_MESSAGES.ownRole);
      const ad = await seedUser(testDb.db, 'ROLE_ADMIN');
      expect(
        (await call('PATCH', `/api/users/${ad.id}`, bearer(ad, 'ROLE_ADMIN'), { roleId: 1 }))
          .statusCode,
      ).toBe(403);
      expect(await roleOf(cm.id)).toBe(11);
      expect(await roleOf(ad.id)).toBe(2);
    });

    it('a role at or above one’s own is not assigned, on edit or creation: 403', async () => {
      const grower = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId: clusterA });
      const adminGives = await call('PATCH', `/api/users/${grower.id}`, admin.headers, {
        roleId: 2,
      });
      expect(adminGives.statusCode).toBe(403);
      expect(adminGives.json().message).toBe(RULE_MESSAGES.roleRank);
      expect(
        (await call('PATCH', `/api/users/${grower.id}`, manager.headers, { roleId: 11 }))
          .statusCode,
      ).toBe(403);
      const created = await call(
        'POST',
        '/api/users/invitation/signup?typeUser=user',
        admin.headers,
        {
          firstname: 'Nouvel',
          lastname: 'Admin',
          email: `nouvel.admin.${Date.now()}@exemple.bj`,
          phone: '97000000',
          roleCode: 'ROLE_ADMIN',
        },
      );
      expect(created.statusCode).toBe(403);
      // Demoting a peer admin is refused too (its rank is not below the actor's).
      const peer = await seedUser(testDb.db, 'ROLE_ADMIN');
      expect(
        (await call('PATCH', `/api/users/${peer.id}`, admin.headers, { roleId: 3 })).statusCode,
      ).toBe(403);
      expect(await roleOf(grower.id)).toBe(3);
      expect(await roleOf(peer.id)).toBe(2);
    });

    it('out of reach (another cluster): 403', async () => {
      const far = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId: clusterB });
      const res = await call('PATCH', `/api/users/${far.id}`, manager.headers, { roleId: 4 });
      expect(res.statusCode).toBe(403);
      expect(await roleOf(far.id)).toBe(3);
    });

    it('below one’s rank and in reach: 200, and the user’s old token stops working', async () => {
      const grower = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId: clusterA });
      const old = bearer(grower, 'ROLE_GROWER');
      expect((await call('GET', '/api/users/me', old)).statusCode).toBe(200);
      const res = await call('PATCH', `/api/users/${grower.id}`, manager.headers, { roleId: 4 });
      expect(res.json().role.code).toBe('ROLE_CARRIER');
      expect((await call('GET', '/api/users/me', old)).statusCode).toBe(401);
    });
  });
});
