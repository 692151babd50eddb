import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import type { RoleCode } from '../http/auth.js';
import { buildTestApp } from '../test-app.js';
import { seedCluster, seedUser, TEST_PASSWORD } from './test-support.js';
import type { Database } from '../database.js';

describe('users: sign-in answers, ownership, duplicates, profile', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let clusterA: string;
  let clusterB: string;
  let ip = 0;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    clusterA = await seedCluster(testDb.db, 'Cluster A');
    clusterB = await seedCluster(testDb.db, 'Cluster B');
  });
  afterAll(async () => app?.close());

  const as = (user: { id: string }, role: RoleCode) => ({
    authorization: `Bearer ${app.jwt.sign({ sub: user.id, role })}`,
  });
  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string> = {},
    payload?: Record<string, unknown>,
  ) => app.inject({ method, url, headers, payload, remoteAddress: `10.4.0.${(ip++ % 250) + 1}` });

  it('login: 401 for a wrong password or unknown e-mail, 406 inactive, 200 with a 12 h token', async () => {
    const active = await seedUser(testDb.db, 'ROLE_GROWER');
    const inactive = await seedUser(testDb.db, 'ROLE_INDUSTRIAL', { active: false });
    for (const payload of [
      { email: active.email, password: 'Wrong#Pass1' },
      { email: 'nobody@exemple.bj', password: TEST_PASSWORD },
    ]) {
      const response = await call('POST', '/api/auth/login', {}, payload);
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe('Vos identifiants sont incorrectes');
    }
    expect(
      (
        await call(
          'POST',
          '/api/auth/login',
          {},
          { email: inactive.email, password: TEST_PASSWORD },
        )
      ).statusCode,
    ).toBe(406);
    const ok = await call(
      'POST',
      '/api/auth/login',
      {},
      { email: active.email.toUpperCase(), password: TEST_PASSWORD },
    );
    expect(ok.statusCode).toBe(200);
    const claims = app.jwt.decode<{ sub: string; role: string; exp: number; iat: number }>(
      ok.json().access_token,
    )!;
    expect(claims).toMatchObject({ sub: active.id, role: 'ROLE_GROWER' });
    expect(claims.exp - claims.iat).toBe(12 * 3600);
  });

  it('login answers the user as GET /users/me gives it: the web app opens its first screen without asking', async () => {
    const user = await seedUser(testDb.db, 'ROLE_INDUSTRIAL');
    const ok = await call(
      'POST',
      '/api/auth/login',
      {},
      { email: user.email, password: TEST_PASSWORD },
    );
    expect(ok.statusCode).toBe(200);
    const me = await call('GET', '/api/users/me', {
      authorization: `Bearer ${ok.json<{ access_token: string }>().access_token}`,
    });
    expect(me.statusCode).toBe(200);
    expect(ok.json().user).toEqual(me.json());
    expect(ok.json().user).not.toHaveProperty('password_hash');
  });

  it('duplicate e-mail (any case): 409 USER_ALREADY_EXIST on signup, edit and profile', async () => {
    const existing = await seedUser(testDb.db, 'ROLE_GROWER', { email: 'double@exemple.bj' });
    const signup = await call(
      'POST',
      '/api/users/invitation/signup?typeUser=cluster-manager',
      {},
      {
        firstname: 'A',
        lastname: 'B',
        email: 'DOUBLE@exemple.bj',
        phone: '97000000',
      },
    );
    expect(signup.statusCode).toBe(409);
    expect(signup.json()).toMatchObject({
      reason: 'USER_ALREADY_EXIST',
      message: 'Ce utilisateur existe déjà',
    });
    const other = await seedUser(testDb.db, 'ROLE_GROWER');
    const admin = await seedUser(testDb.db, 'ROLE_ADMIN');
    // Only the owner changes an e-mail (field-rules.ts): the admin edits its own here.
    const edit = await call('PATCH', `/api/users/${admin.id}`, as(admin, 'ROLE_ADMIN'), {
      email: existing.email,
      currentPassword: TEST_PASSWORD,
    });
    expect(edit.json().reason).toBe('USER_ALREADY_EXIST');
    const own = await call('PATCH', '/api/users/me/email', as(other, 'ROLE_GROWER'), {
      email: existing.email,
      currentPassword: TEST_PASSWORD,
    });
    expect(own.statusCode).toBe(409);
  });

  it('five simultaneous sign-ups with one e-mail: one 201, four 409, one organisation', async () => {
    const body = {
      firstname: 'Course',
      lastname: 'Parallèle',
      email: 'course@exemple.bj',
      phone: '97000000',
      ifu: '3201234567890',
      denomination: 'Course SARL',
    };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        call('POST', '/api/users/invitation/signup?typeUser=industrial', {}, body),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    const orgs = await testDb.db
      .selectFrom('organizations')
      .select('id')
      .where('denomination', '=', 'Course SARL')
      .execute();
    expect(orgs).toHaveLength(1);
  });

  it('an unreachable SMTP server does not lose the account: 201, and resend works later', async () => {
    const broken = await buildTestApp(testDb.db, { env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    const response = await broken.inject({
      method: 'POST',
      url: '/api/users/invitation/signup?typeUser=sfd',
      payload: {
        firstname: 'Sans',
        lastname: 'Mail',
        email: 'sans.mail@exemple.bj',
        phone: '97000000',
      },
    });
    expect(response.statusCode).toBe(201);
    await broken.close();
    expect(
      (await call('POST', '/api/users/invitation/resend', {}, { email: 'sans.mail@exemple.bj' }))
        .statusCode,
    ).toBe(200);
    const mail = await testDb.db
      .selectFrom('outbox')
      .select('text')
      .where('recipient', '=', 'sans.mail@exemple.bj')
      .executeTakeFirst();
    expect(mail?.text).toContain('/auth/signup-invitation?t=');
  });

  it('form-style inputs: role id as a string, empty selects as null', async () => {
    const admin = await seedUser(testDb.db, 'ROLE_ADMIN');
    const headers = as(admin, 'ROLE_ADMIN');
    const created = await call('POST', '/api/users/invitation/signup?typeUser=user', headers, {
      firstname: 'Form',
      lastname: 'Select',
      email: 'form.select@exemple.bj',
      username: 'form.select@exemple.bj',
      phone: '+2290197000000',
      roleId: '4',
      organizationId: '',
      clusterId: '',
      momoAccountNumber: '',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      role: { code: 'ROLE_CARRIER' },
      organizationId: null,
      clusterId: null,
      momoAccountNumber: null,
    });
    const edited = await call('PATCH', `/api/users/${created.json().id}`, headers, {
      roleId: '3',
      clusterId: clusterA,
      organizationId: '',
    });
    expect(edited.json()).toMatchObject({ roleId: 3, clusterId: clusterA, organizationId: null });
  });

  it('one reset link used five times at once: exactly one 200', async () => {
    const user = await seedUser(testDb.db, 'ROLE_GROWER', { email: 'course.lien@exemple.bj' });
    await call('POST', `/api/users/forgot-password/${user.email}`);
    const mail = await testDb.db
      .selectFrom('outbox')
      .select('text')
      .where('recipient', '=', user.email)
      .executeTakeFirstOrThrow();
    const token = new URL(mail.text.match(/https?:\/\/\S+/)![0]).searchParams.get('t');
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call(
          'POST',
          '/api/users/reset-password',
          {},
          {
            token,
            email: user.email,
            password: `Course#${i}xyz`,
            confirmPassword: `Course#${i}xyz`,
          },
        ),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 403, 403, 403, 403]);
  });

  it('a cluster manager sees and manages only its cluster’s non-admin users', async () => {
    const manager = await seedUser(testDb.db, 'ROLE_CLUSTER_MANAGER', { clusterId: clusterA });
    const mine = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId: clusterA });
    const theirs = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId: clusterB });
    const headers = as(manager, 'ROLE_CLUSTER_MANAGER');
    const list = (await call('GET', '/api/users?limit=-1', headers)).json();
    const ids = list.data.map((u: { id: string }) => u.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(list.data.every((u: { clusterId: string }) => u.clusterId === clusterA)).toBe(true);
    expect((await call('GET', `/api/users/${theirs.id}`, headers)).statusCode).toBe(403);
    expect((await call('GET', `/api/users/cluster/${clusterB}`, headers)).statusCode).toBe(403);
    expect((await call('GET', `/api/users/cluster/${clusterA}`, headers)).statusCode).toBe(200);
    expect(
      (await call('PATCH', `/api/users/${theirs.id}`, headers, { firstname: 'X' })).statusCode,
    ).toBe(403);
    expect(
      (await call('PATCH', `/api/users/${mine.id}`, headers, { clusterId: clusterB })).statusCode,
    ).toBe(403);
    expect(
      (await call('GET', `/api/users/activate-account/${mine.id}`, headers)).json().isActive,
    ).toBe(false);
    // Creates users in its own cluster only, never admins.
    const body = { firstname: 'N', lastname: 'P', phone: '97000000', roleCode: 'ROLE_GROWER' };
    const created = await call('POST', '/api/users/invitation/signup?typeUser=user', headers, {
      ...body,
      email: 'cm.cree@exemple.bj',
    });
    expect(created.json().clusterId).toBe(clusterA);
    const adminTry = await call('POST', '/api/users/invitation/signup?typeUser=user', headers, {
      ...body,
      email: 'cm.admin@exemple.bj',
      roleCode: 'ROLE_ADMIN',
    });
    expect(adminTry.statusCode).toBe(403);
  });

  it('the super admin role: hidden from others in GET /role, and only a super admin grants or edits it', async () => {
    const superAdmin = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN');
    const admin = await seedUser(testDb.db, 'ROLE_ADMIN');
    const grower = await seedUser(testDb.db, 'ROLE_GROWER');
    const all = (await call('GET', '/api/role', as(superAdmin, 'ROLE_SUPER_ADMIN'))).json();
    expect(all).toHaveLength(12);
    expect(all.find((r: { code: string }) => r.code === 'ROLE_INDUSTRIAL').name).toBe('Agrégateur');
    const forAdmin = (await call('GET', '/api/role', as(admin, 'ROLE_ADMIN'))).json();
    expect(forAdmin.map((r: { code: string }) => r.code)).not.toContain('ROLE_SUPER_ADMIN');
    expect(forAdmin).toHaveLength(11);
    expect(
      (await call('PATCH', `/api/users/${grower.id}`, as(admin, 'ROLE_ADMIN'), { roleId: 1 }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('GET', `/api/users/${superAdmin.id}`, as(admin, 'ROLE_ADMIN'))).statusCode,
    ).toBe(403);
    expect(
      (await call('DELETE', `/api/users/${superAdmin.id}`, as(admin, 'ROLE_ADMIN'))).statusCode,
    ).toBe(403);
    const promoted = await call(
      'PATCH',
      `/api/users/${grower.id}`,
      as(superAdmin, 'ROLE_SUPER_ADMIN'),
      { roleId: 2 },
    );
    expect(promoted.json().role.code).toBe('ROLE_ADMIN');
  });

  it('a user may read itself but not others; the token of a deleted user is refused', async () => {
    const grower = await seedUser(testDb.db, 'ROLE_GROWER');
    const other = await seedUser(testDb.db, 'ROLE_GROWER');
    const admin = await seedUser(testDb.db, 'ROLE_ADMIN');
    expect(
      (await call('GET', `/api/users/${grower.id}`, as(grower, 'ROLE_GROWER'))).statusCode,
    ).toBe(200);
    expect(
      (await call('GET', `/api/users/${other.id}`, as(grower, 'ROLE_GROWER'))).statusCode,
    ).toBe(403);
    expect(
      (await call('DELETE', `/api/users/${grower.id}`, as(admin, 'ROLE_ADMIN'))).statusCode,
    ).toBe(204);
    expect((await call('GET', '/api/users/me', as(grower, 'ROLE_GROWER'))).statusCode).toBe(401);
    expect((await call('GET', `/api/users/${grower.id}`, as(admin, 'ROLE_ADMIN'))).statusCode).toBe(
      404,
    );
    expect(
      (await call('DELETE', `/api/users/${admin.id}`, as(admin, 'ROLE_ADMIN'))).statusCode,
    ).toBe(403);
    // The e-mail of a deleted user may be used again.
    const again = await call(
      'POST',
      '/api/users/invitation/signup?typeUser=sfd',
      {},
      {
        firstname: 'R',
        lastname: 'S',
        email: grower.email,
        phone: '97000000',
      },
    );
    expect(again.statusCode).toBe(201);
  });

  it('lists: pagination, search, role filter, limit=-1, industrials search', async () => {
    const superAdmin = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN');
    const headers = as(superAdmin, 'ROLE_SUPER_ADMIN');
    for (let i = 0; i < 3; i++)
      await seedUser(testDb.db, 'ROLE_CARRIER', { email: `porteur${i}@transport.bj` });
    const page = (
      await call('GET', '/api/users?page=2&limit=2&q=transport&roles=ROLE_CARRIER', headers)
    ).json();
    expect(page.count).toBe(3);
    expect(page.data).toHaveLength(1);
    const all = (await call('GET', '/api/users?limit=-1&q=transport', headers)).json();
    expect(all.data).toHaveLength(3);
    const agg = await seedUser(testDb.db, 'ROLE_INDUSTRIAL', { email: 'agg.cherche@exemple.bj' });
    const found = (await call('GET', '/api/users/industrials?q=agg.cherche', headers)).json();
    expect(found).toEqual({
      data: [
        {
          id: agg.id,
          firstname: expect.any(String),
          lastname: expect.any(String),
          organization: null,
        },
      ],
      count: 1,
    });
    const pct = (await call('GET', '/api/users?q=%25', headers)).json();
    expect(pct.count).toBe(0);
  });

  it('profile: one field at a time; password change checks the old password', async () => {
    const user = await seedUser(testDb.db, 'ROLE_INPUT_PROVIDER');
    const headers = as(user, 'ROLE_INPUT_PROVIDER');
    expect(
      (await call('PATCH', '/api/users/me/firstname', headers, { firstname: 'Rose' })).json()
        .firstname,
    ).toBe('Rose');
    expect(
      (await call('PATCH', '/api/users/me/lastname', headers, { lastname: 'Ahouandjinou' })).json()
        .lastname,
    ).toBe('Ahouandjinou');
    const mail = (
      await call('PATCH', '/api/users/me/email', headers, {
        email: 'Rose.A@Exemple.bj',
        currentPassword: TEST_PASSWORD,
      })
    ).json();
    expect(mail).toMatchObject({ email: 'rose.a@exemple.bj', username: 'rose.a@exemple.bj' });
    const wrong = await call('POST', '/api/users/me/password', headers, {
      oldPassword: 'Pas#Le1Bon',
      newPassword: 'Rose#20266',
      confirmPassword: 'Rose#20266',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Modification non effectuée');
    const ok = await call('POST', '/api/users/me/password', headers, {
      oldPassword: TEST_PASSWORD,
      newPassword: 'Rose#20266',
      confirmPassword: 'Rose#20266',
    });
    expect(ok.statusCode).toBe(200);
    expect(
      (
        await call(
          'POST',
          '/api/auth/login',
          {},
          { email: 'rose.a@exemple.bj', password: 'Rose#20266' },
        )
      ).statusCode,
    ).toBe(200);
  });

  it('without SMTP_URL, mails go to the outbox table', async () => {
    await call(
      'POST',
      '/api/users/invitation/signup?typeUser=sfd',
      {},
      {
        firstname: 'Outbox',
        lastname: 'Test',
        email: 'outbox@exemple.bj',
        phone: '97000000',
      },
    );
    const mail = await testDb.db
      .selectFrom('outbox')
      .selectAll()
      .where('recipient', '=', 'outbox@exemple.bj')
      .executeTakeFirstOrThrow();
    expect(mail.text).toMatch(/\/auth\/signup-invitation\?t=[\w-]+&r=outbox%40exemple\.bj/);
  });
  it('a user answers its NIP (null until known)', async () => {
    const user = await seedUser(testDb.db, 'ROLE_GROWER');
    expect((await call('GET', '/api/users/me', as(user, 'ROLE_GROWER'))).json().nip).toBeNull();
    await testDb.db
      .updateTable('users')
      .set({ nip: '1234567890' })
      .where('id', '=', user.id)
      .execute();
    expect((await call('GET', '/api/users/me', as(user, 'ROLE_GROWER'))).json().nip).toBe(
      '1234567890',
    );
  });
});
