import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../test-app.js';
import { userStreamId } from './catalogue.js';
import { membersOf, type Members, type NewMember } from './members.js';
import { verifyPassword } from './password.js';
import { seedCluster, seedUser } from './test-support.js';
import type { Database } from '../database.js';

/**
 * Identity's members face (members.ts), given/when/then on a real database: registration with
 * the caller's rows in the same transaction, phone and e-mail uniqueness (409 in French), staff
 * edits, ban/reinstate, cluster moves, PIN reset by SMS, and the four-eyes payout change —
 * each change audited in the member's `user-<id>` stream.
 */
describe('members (identity’s face for the actors)', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let face: Members;
  let clusterA: string;
  let clusterB: string;
  let superAdmin: string;
  let otherSuperAdmin: string;
  let manager: string;
  let farManager: string;
  let n = 0;

  const grower = (overrides: Partial<NewMember> = {}): NewMember => {
    n++;
    return {
      role: 'ROLE_GROWER',
      firstname: `Koffi${n}`,
      lastname: 'Agossou',
      phone: `+22901660${String(n).padStart(5, '0')}`,
      email: null,
      nip: '1234567',
      clusterId: clusterA,
      organizationId: null,
      momoAccountNumber: `+22901660${String(n).padStart(5, '0')}`,
      bankName: null,
      bankAccountNumber: null,
      ...overrides,
    };
  };
  const events = async (userId: string) =>
    (
      await testDb.db
        .selectFrom('events')
        .select(['type', 'data'])
        .where('stream_id', '=', userStreamId(userId))
        .orderBy('version')
        .execute()
    ).map((e) => ({ type: e.type as string, data: e.data as Record<string, unknown> }));
  const user = (id: string) =>
    testDb.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const register = (member: NewMember, actorId = manager) =>
    face.register(member, actorId, async (_trx, u) => u);

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
    face = membersOf(app);
    clusterA = await seedCluster(testDb.db, 'Cluster Membres A');
    clusterB = await seedCluster(testDb.db, 'Cluster Membres B');
    superAdmin = (await seedUser(testDb.db, 'ROLE_SUPER_ADMIN')).id;
    otherSuperAdmin = (await seedUser(testDb.db, 'ROLE_SUPER_ADMIN')).id;
    manager = (await seedUser(testDb.db, 'ROLE_CLUSTER_MANAGER', { clusterId: clusterA })).id;
    farManager = (await seedUser(testDb.db, 'ROLE_CLUSTER_MANAGER', { clusterId: clusterB })).id;
  });
  afterAll(async () => app?.close());

  it('is one face per app', () => {
    expect(membersOf(app)).toBe(face);
  });

  it('given a cluster manager, when it registers a grower, then the user is active without password, in its cluster, with its UserRegistered event, and `within` ran in the same transaction', async () => {
    const member = grower();
    const result = await face.register(member, manager, async (trx, u) => {
      // The user is visible inside the transaction, not yet outside it.
      const inside = await trx
        .selectFrom('users')
        .select('id')
        .where('id', '=', u.id)
        .executeTakeFirst();
      const outside = await testDb.db
        .selectFrom('users')
        .select('id')
        .where('id', '=', u.id)
        .executeTakeFirst();
      return { u, inside: !!inside, outside: !!outside };
    });
    expect(result.inside).toBe(true);
    expect(result.outside).toBe(false);
    const row = await user(result.u.id);
    expect(row).toMatchObject({
      is_active: true,
      password_hash: null,
      email: null,
      username: member.phone,
      phone: member.phone,
      cluster_id: clusterA,
      wallet_id: result.u.walletId,
      nip: '1234567',
    });
    const [registered] = await events(result.u.id);
    expect(registered).toMatchObject({
      type: 'UserRegistered',
      data: { actorId: manager, role: 'ROLE_GROWER', phone: member.phone, email: null },
    });
  });

  it('given `within` fails, when a member is registered, then neither the user nor its event remain', async () => {
    const member = grower();
    await expect(
      face.register(member, manager, async () => {
        throw new Error('plot refused');
      }),
    ).rejects.toThrow('plot refused');
    const left = await testDb.db
      .selectFrom('users')
      .select('id')
      .where('phone', '=', member.phone)
      .execute();
    expect(left).toEqual([]);
  });

  it('given a phone already used by a user (any role), when a member is registered with it, then 409 PHONE_ALREADY_EXIST in French, nothing written', async () => {
    const first = grower();
    await register(first);
    await expect(register(grower({ phone: first.phone }))).rejects.toMatchObject({
      statusCode: 409,
      message: 'Ce numéro de téléphone est déjà utilisé',
      data: { reason: 'PHONE_ALREADY_EXIST' },
    });
    // A staff account's phone counts too.
    const staffPhone = (
      await testDb.db
        .selectFrom('users')
        .select('phone')
        .where('id', '=', manager)
        .executeTakeFirstOrThrow()
    ).phone!;
    await expect(register(grower({ phone: staffPhone }))).rejects.toMatchObject({
      statusCode: 409,
    });
  });

  it('given two registrations of one phone at once, then exactly one succeeds', async () => {
    const phone = grower().phone;
    const results = await Promise.allSettled([
      register(grower({ phone })),
      register(grower({ phone })),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({
      reason: { statusCode: 409 },
    });
  });

  it('given a used e-mail, when a member is registered with it, then 409 USER_ALREADY_EXIST', async () => {
    await register(grower({ email: 'membre.unique@test.bj' }));
    await expect(register(grower({ email: 'MEMBRE.unique@test.bj' }))).rejects.toMatchObject({
      statusCode: 409,
      data: { reason: 'USER_ALREADY_EXIST' },
    });
  });

  it('given a cluster manager, when it registers a grower in another cluster, then 403', async () => {
    await expect(register(grower({ clusterId: clusterB }))).rejects.toMatchObject({
      statusCode: 403,
    });
  });

  it('given a cooperative with its organisation, when registered, then the organisation and the representative exist together and the invitation is mailed', async () => {
    const member = grower({
      role: 'ROLE_FARMER_ORGANIZATION',
      email: 'coop.membres@test.bj',
      organization: { denomination: 'Coopérative Membres', type: 'COOPERATIVE', ifu: null },
    });
    const u = await register(member, superAdmin);
    expect(u.organizationId).toBeTruthy();
    const row = await user(u.id);
    expect(row.organization_id).toBe(u.organizationId);
    const mail = await testDb.db
      .selectFrom('outbox')
      .select('subject')
      .where('recipient', '=', 'coop.membres@test.bj')
      .executeTakeFirst();
    expect(mail?.subject).toBe('Filière : confirmez votre compte');
  });

  it('given a grower, when the cluster manager resets its PIN, then a 5-digit PIN is hashed, sent by SMS to its phone, and audited', async () => {
    const member = grower();
    const u = await register(member);
    await face.resetPin(u.id, manager);
    const sms = await testDb.db
      .selectFrom('sms_outbox')
      .select(['text'])
      .where('recipient', '=', member.phone)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const pin = /code PIN est (\d{5})\./.exec(sms.text)?.[1];
    expect(pin).toMatch(/^\d{5}$/);
    const row = await user(u.id);
    expect(row.pin_hash).not.toContain(pin);
    expect(await verifyPassword(row.pin_hash, pin!)).toBe(true);
    expect((await events(u.id)).map((e) => e.type)).toContain('UserPinReset');
    expect((await face.member(u.id))?.hasPin).toBe(true);
  });

  it('given a staff user, when a PIN reset targets it, then 403 (members only)', async () => {
    await expect(face.resetPin(farManager, manager)).rejects.toMatchObject({ statusCode: 403 });
  });

  it('given a grower, when the super admin bans then reinstates it, then its tokens are revoked and both are audited with the reason', async () => {
    const u = await register(grower());
    const before = await user(u.id);
    await face.setActive(u.id, false, superAdmin, 'Fraude');
    const banned = await user(u.id);
    expect(banned.is_active).toBe(false);
    expect(banned.token_version).toBe(before.token_version + 1);
    await face.setActive(u.id, true, superAdmin);
    expect((await user(u.id)).is_active).toBe(true);
    const audit = await events(u.id);
    expect(audit.slice(-2)).toMatchObject([
      { type: 'UserDeactivated', data: { actorId: superAdmin, reason: 'Fraude' } },
      { type: 'UserActivated', data: { actorId: superAdmin } },
    ]);
  });

  it('given a cluster manager of another cluster, when it bans a grower, then 403 and nothing changes', async () => {
    const u = await register(grower());
    await expect(face.setActive(u.id, false, farManager)).rejects.toMatchObject({
      statusCode: 403,
    });
    expect((await user(u.id)).is_active).toBe(true);
  });

  it('given staff in reach, when it edits a grower’s names, NIP, phone and e-mail, then each is written and audited; a used phone is 409', async () => {
    const u = await register(grower());
    const newPhone = grower().phone;
    await face.update(
      u.id,
      { firstname: 'Romuald', nip: '99', phone: newPhone, email: 'romuald@test.bj' },
      manager,
    );
    expect(await user(u.id)).toMatchObject({
      firstname: 'Romuald',
      nip: '99',
      phone: newPhone,
      email: 'romuald@test.bj',
      username: 'romuald@test.bj',
    });
    const types = (await events(u.id)).map((e) => e.type);
    expect(types).toEqual([
      'UserRegistered',
      'UserDetailsChanged',
      'UserDetailsChanged',
      'UserDetailsChanged',
      'UserEmailChanged',
    ]);
    const other = await register(grower());
    await expect(face.update(other.id, { phone: newPhone }, manager)).rejects.toMatchObject({
      statusCode: 409,
      data: { reason: 'PHONE_ALREADY_EXIST' },
    });
  });

  it('given a grower paid on its phone (no mobile money), when staff change the phone, then 422: that is a payout change', async () => {
    const u = await register(grower({ momoAccountNumber: null }));
    await expect(face.update(u.id, { phone: grower().phone }, manager)).rejects.toMatchObject({
      statusCode: 422,
      data: { reason: 'PHONE_IS_PAYOUT' },
    });
  });

  it('given a grower registered with an e-mail (no password, no invitation), when a reset link is asked for it, then none is mailed: a staff e-mail edit hands nothing over', async () => {
    const u = await register(grower({ email: 'sans.compte.web@test.bj' }));
    await face.update(u.id, { email: 'nouvelle.adresse@test.bj' }, manager);
    for (const email of ['sans.compte.web@test.bj', 'nouvelle.adresse@test.bj']) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/users/forgot-password/${encodeURIComponent(email)}`,
        remoteAddress: '10.77.0.1',
      });
      expect(res.statusCode).toBeLessThan(300);
    }
    const mails = await testDb.db
      .selectFrom('outbox')
      .select('recipient')
      .where('recipient', 'in', ['sans.compte.web@test.bj', 'nouvelle.adresse@test.bj'])
      .execute();
    expect(mails).toEqual([]);
    const tokens = await testDb.db
      .selectFrom('user_tokens')
      .select('id')
      .where('user_id', '=', u.id)
      .execute();
    expect(tokens).toEqual([]);
  });

  it('given a cooperative’s representative, when staff change its e-mail, then 403 (it signs in itself)', async () => {
    const u = await register(
      grower({ role: 'ROLE_FARMER_ORGANIZATION', email: 'rep.membres@test.bj' }),
      superAdmin,
    );
    await expect(
      face.update(u.id, { email: 'autre.rep@test.bj' }, superAdmin),
    ).rejects.toMatchObject({ statusCode: 403 });
    await face.update(u.id, { lastname: 'Hounkpè' }, superAdmin);
    expect((await user(u.id)).lastname).toBe('Hounkpè');
  });

  it('given members, when moved to another cluster, then each has its UserClusterChanged event', async () => {
    const a = await register(grower());
    const b = await register(grower());
    await face.setCluster([a.id, b.id], clusterB, superAdmin);
    for (const id of [a.id, b.id]) {
      expect((await user(id)).cluster_id).toBe(clusterB);
      expect((await events(id)).at(-1)).toMatchObject({
        type: 'UserClusterChanged',
        data: { from: clusterA, to: clusterB },
      });
    }
  });

  it('given the caller’s transaction, when members move with it and it rolls back, then no user moved; when it commits, they did', async () => {
    const a = await register(grower());
    await expect(
      testDb.db.transaction().execute(async (trx) => {
        await face.setCluster([a.id], clusterB, superAdmin, trx);
        throw new Error('the area refused');
      }),
    ).rejects.toThrow('the area refused');
    expect((await user(a.id)).cluster_id).toBe(clusterA);
    await testDb.db.transaction().execute(async (trx) => {
      await face.setCluster([a.id], clusterB, superAdmin, trx);
    });
    expect((await user(a.id)).cluster_id).toBe(clusterB);
    await face.setCluster([], clusterA, superAdmin);
  });

  it('given a ban with `within`, when `within` fails, then the member stays active and nothing is audited', async () => {
    const u = await register(grower());
    await expect(
      face.setActive(u.id, false, superAdmin, 'Fraude', async () => {
        throw new Error('row missing');
      }),
    ).rejects.toThrow('row missing');
    expect((await user(u.id)).is_active).toBe(true);
    expect((await events(u.id)).map((e) => e.type)).toEqual(['UserRegistered']);
  });

  it('given a payout change, when the requester or a non-super-admin approves it, then 403 and the account stays; a second super admin applies it with approvedBy', async () => {
    const member = grower();
    const u = await register(member);
    const requestId = (await sql<{ id: string }>`select gen_random_uuid() as id`.execute(testDb.db))
      .rows[0]!.id;
    const change = {
      momoAccountNumber: '+2290197123456',
      bankName: 'Ecobank Bénin',
      bankAccountNumber: 'BJ0661010000001',
    };
    await face.payoutRequested(u.id, { requestId, ...change }, manager, async () => undefined);
    for (const approvedBy of [manager, superAdmin]) {
      await expect(
        face.changePayout(
          u.id,
          change,
          { requestId, requestedBy: approvedBy === manager ? manager : superAdmin, approvedBy },
          async () => undefined,
        ),
      ).rejects.toMatchObject({ statusCode: 403, data: { reason: 'FOUR_EYES' } });
    }
    expect((await user(u.id)).momo_account_number).toBe(member.momoAccountNumber);
    await face.changePayout(
      u.id,
      change,
      { requestId, requestedBy: superAdmin, approvedBy: otherSuperAdmin },
      async () => undefined,
    );
    expect(await face.member(u.id)).toMatchObject(change);
    const audit = await events(u.id);
    expect(audit.map((e) => e.type)).toEqual([
      'UserRegistered',
      'UserPayoutChangeRequested',
      'UserPayoutAccountChanged',
      'UserPayoutAccountChanged',
      'UserPayoutAccountChanged',
    ]);
    expect(audit.at(-3)).toMatchObject({
      data: {
        account: 'MOBILE_MONEY',
        from: member.momoAccountNumber,
        to: change.momoAccountNumber,
        approvedBy: otherSuperAdmin,
        requestedBy: superAdmin,
        actorId: otherSuperAdmin,
      },
    });
  });
});
