import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { membersOf } from '../../../identity/index.js';
import { seedCluster, seedUser } from '../../../identity/test-support.js';
import { ROLE_CODES, type RoleCode } from '../../../kernel/roles.js';
import { buildTestApp } from '../../../test-app.js';
import type { Database } from '../../../database.js';

/**
 * The four-eyes payout-account requests over HTTP: staff in reach ask, a super
 * admin who did not ask approves (the account changes then, not before) or rejects with a
 * reason; the old and the new number get an SMS at each step; each step is in the member's
 * audit trail; every other role and reach is refused in French.
 */
describe('/api/payout-requests', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let clusterA: string;
  let clusterB: string;
  const people: Record<string, { id: string; role: RoleCode }> = {};
  let ip = 0;
  let phones = 0;

  const as = (who: string) => ({
    authorization: `Bearer ${app.jwt.sign({ sub: people[who]!.id, role: people[who]!.role, tv: 0 })}`,
  });
  const call = (
    who: string | undefined,
    method: 'GET' | 'POST',
    url: string,
    payload?: Record<string, unknown>,
  ) =>
    app.inject({
      method,
      url,
      headers: who ? as(who) : {},
      ...(payload ? { payload } : {}),
      remoteAddress: `10.12.0.${(ip++ % 250) + 1}`,
    });
  const newGrower = async (clusterId = clusterA) => {
    const phone = `+22901670${String(++phones).padStart(5, '0')}`;
    return {
      phone,
      ...(await membersOf(app).register(
        {
          role: 'ROLE_GROWER',
          firstname: `Sèna${phones}`,
          lastname: 'Kpadonou',
          phone,
          email: null,
          nip: null,
          clusterId,
          organizationId: null,
          momoAccountNumber: phone,
          bankName: null,
          bankAccountNumber: null,
        },
        people.superAdmin!.id,
        async (_trx, u) => u,
      )),
    };
  };
  const smsTo = async (recipient: string) =>
    (
      await testDb.db
        .selectFrom('sms_outbox')
        .select('text')
        .where('recipient', '=', recipient)
        .orderBy('id')
        .execute()
    ).map((r) => r.text);
  const account = async (id: string) =>
    testDb.db
      .selectFrom('users')
      .select(['momo_account_number', 'bank_name', 'bank_account_number'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const auditTypes = async (id: string) =>
    (
      await testDb.db
        .selectFrom('events')
        .select(['type', 'data'])
        .where('stream_id', '=', `user-${id}`)
        .orderBy('version')
        .execute()
    ).map((e) => ({ type: e.type as string, data: e.data as Record<string, unknown> }));

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
    clusterA = await seedCluster(testDb.db, 'Cluster Paiement A');
    clusterB = await seedCluster(testDb.db, 'Cluster Paiement B');
    const seed = async (name: string, role: RoleCode, clusterId: string | null) => {
      people[name] = { id: (await seedUser(testDb.db, role, { clusterId })).id, role };
    };
    await seed('superAdmin', 'ROLE_SUPER_ADMIN', null);
    await seed('otherSuperAdmin', 'ROLE_SUPER_ADMIN', null);
    await seed('admin', 'ROLE_ADMIN', null);
    await seed('manager', 'ROLE_CLUSTER_MANAGER', clusterA);
    await seed('farManager', 'ROLE_CLUSTER_MANAGER', clusterB);
    for (const role of ROLE_CODES) await seed(role, role, clusterA);
  });
  afterAll(async () => app?.close());

  it('given the grower’s cluster manager, when it asks for a new account and another super admin approves, then the account changes only at approval, both numbers are told each time, and every step is audited', async () => {
    const grower = await newGrower();
    const newMomo = '0166112233';
    const asked = await call('manager', 'POST', '/api/payout-requests', {
      userId: grower.id,
      momoAccountNumber: newMomo,
      bankName: 'Ecobank Bénin',
      bankAccountNumber: 'BJ066 01001 00000012345',
      comment: 'Nouveau téléphone',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const request = asked.json();
    expect(request).toMatchObject({
      status: 'PENDING',
      member: { id: grower.id, phone: grower.phone, role: 'ROLE_GROWER' },
      current: { momoAccountNumber: grower.phone, bankName: null },
      proposed: { momoAccountNumber: '+2290166112233', bankName: 'Ecobank Bénin' },
      requestedBy: { id: people.manager!.id },
      decidedBy: null,
    });
    // Until approval, payments still go to the old account.
    expect((await account(grower.id)).momo_account_number).toBe(grower.phone);
    expect(await smsTo(grower.phone)).toHaveLength(1);
    expect(await smsTo('+2290166112233')).toHaveLength(1);
    expect((await smsTo(grower.phone))[0]).toContain('••2233');

    // The super admin list shows it, searchable by the member's name.
    const list = await call(
      'superAdmin',
      'GET',
      `/api/payout-requests?q=${encodeURIComponent(`Sèna${phones}`)}`,
    );
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ count: 1, data: [{ id: request.id }] });

    const approved = await call('superAdmin', 'POST', `/api/payout-requests/${request.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      status: 'APPROVED',
      decidedBy: { id: people.superAdmin!.id },
    });
    expect(await account(grower.id)).toEqual({
      momo_account_number: '+2290166112233',
      bank_name: 'Ecobank Bénin',
      bank_account_number: 'BJ066 01001 00000012345',
    });
    expect(await smsTo(grower.phone)).toHaveLength(2);
    expect(await smsTo('+2290166112233')).toHaveLength(2);
    const audit = await auditTypes(grower.id);
    expect(audit.map((e) => e.type)).toEqual([
      'UserRegistered',
      'UserPayoutChangeRequested',
      'UserPayoutAccountChanged',
      'UserPayoutAccountChanged',
      'UserPayoutAccountChanged',
    ]);
    expect(audit[2]!.data).toMatchObject({
      actorId: people.superAdmin!.id,
      approvedBy: people.superAdmin!.id,
      requestedBy: people.manager!.id,
      requestId: request.id,
    });
    // The history of the member, for its cluster manager.
    const history = await call('manager', 'GET', `/api/payout-requests/user/${grower.id}`);
    expect(history.json()).toMatchObject({ count: 1, data: [{ status: 'APPROVED' }] });
    // Decided once: a second decision is 409.
    const again = await call(
      'otherSuperAdmin',
      'POST',
      `/api/payout-requests/${request.id}/approve`,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Cette demande a déjà été traitée');
  });

  it('given a super admin’s own request, when it approves or rejects it, then 403 and the account stays; another super admin rejects it with a reason', async () => {
    const grower = await newGrower();
    const asked = await call('superAdmin', 'POST', '/api/payout-requests', {
      userId: grower.id,
      momoAccountNumber: '0166445566',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const { id } = asked.json();
    for (const [path, payload] of [
      ['approve', undefined],
      ['reject', { reason: 'Doublon' }],
    ] as const) {
      const res = await call('superAdmin', 'POST', `/api/payout-requests/${id}/${path}`, payload);
      expect(res.statusCode, path).toBe(403);
      expect(res.json()).toMatchObject({
        reason: 'FOUR_EYES',
        message:
          'Vous ne pouvez pas traiter votre propre demande : un autre super administrateur doit l’approuver ou la rejeter',
      });
    }
    expect((await account(grower.id)).momo_account_number).toBe(grower.phone);
    const noReason = await call('otherSuperAdmin', 'POST', `/api/payout-requests/${id}/reject`, {
      reason: '  ',
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toContain('Ce champ est obligatoire');
    const rejected = await call('otherSuperAdmin', 'POST', `/api/payout-requests/${id}/reject`, {
      reason: 'Numéro non vérifié',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({
      status: 'REJECTED',
      rejectionReason: 'Numéro non vérifié',
    });
    expect((await account(grower.id)).momo_account_number).toBe(grower.phone);
    expect((await auditTypes(grower.id)).at(-1)).toMatchObject({
      type: 'UserPayoutChangeRejected',
      data: { actorId: people.otherSuperAdmin!.id, reason: 'Numéro non vérifié' },
    });
    // Rejected requests are listed under their status.
    const list = await call('superAdmin', 'GET', '/api/payout-requests?status=REJECTED');
    expect(list.json().data.map((r: { id: string }) => r.id)).toContain(id);
  });

  it('given a pending request, when another is asked for the same member, then 409', async () => {
    const grower = await newGrower();
    const body = { userId: grower.id, momoAccountNumber: '0166778899' };
    expect((await call('manager', 'POST', '/api/payout-requests', body)).statusCode).toBe(201);
    const second = await call('admin', 'POST', '/api/payout-requests', {
      ...body,
      momoAccountNumber: '0166778800',
    });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      reason: 'PENDING_REQUEST',
      message: 'Une demande de changement est déjà en attente pour ce membre',
    });
  });

  it('given bad input, then 400 with the field’s French message, never a 500', async () => {
    const grower = await newGrower();
    const cases: [Record<string, unknown>, string][] = [
      [{ userId: grower.id, momoAccountNumber: '12' }, 'Numéro de téléphone invalide'],
      [{ userId: grower.id }, 'Ce champ est obligatoire'],
      [
        { userId: grower.id, momoAccountNumber: '0166000001', bankName: 'Banque inconnue' },
        'Choisissez une banque de la liste',
      ],
      [
        { userId: grower.id, momoAccountNumber: '0166000001', bankName: 'Orabank Bénin' },
        'Indiquez la banque et le numéro de compte, ou aucun des deux',
      ],
      [{ userId: grower.id, momoAccountNumber: grower.phone }, 'identique au compte actuel'],
      [{ userId: 'x', momoAccountNumber: '0166000001' }, 'Entré non valide'],
    ];
    for (const [payload, message] of cases) {
      const res = await call('manager', 'POST', '/api/payout-requests', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message, JSON.stringify(payload)).toContain(message);
    }
  });

  it('given staff out of reach or without the role, then 403 in French and nothing is written', async () => {
    const grower = await newGrower();
    const body = { userId: grower.id, momoAccountNumber: '0166009988' };
    const far = await call('farManager', 'POST', '/api/payout-requests', body);
    expect(far.statusCode).toBe(403);
    expect(far.json().message).toBe('Ce membre n’est pas dans votre périmètre');
    expect(
      (await call('farManager', 'GET', `/api/payout-requests/user/${grower.id}`)).statusCode,
    ).toBe(403);
    for (const role of ROLE_CODES) {
      const allowed = ['ROLE_SUPER_ADMIN', 'ROLE_ADMIN', 'ROLE_CLUSTER_MANAGER'].includes(role);
      if (allowed) continue;
      const res = await call(role, 'POST', '/api/payout-requests', body);
      expect(res.statusCode, role).toBe(403);
      expect(res.json().message).toBe('Vous n’avez pas accès à cette ressource');
      const list = await call(role, 'GET', '/api/payout-requests');
      expect(list.statusCode, role).toBe(403);
    }
    // Only super admins list or decide.
    for (const who of ['admin', 'manager']) {
      expect((await call(who, 'GET', '/api/payout-requests')).statusCode, who).toBe(403);
    }
    expect((await call(undefined, 'GET', '/api/payout-requests')).statusCode).toBe(401);
    expect(await smsTo('+2290166009988')).toEqual([]);
    // A staff user is not a member: its payout changes are its own (PATCH /users/me…).
    const staff = await call('superAdmin', 'POST', '/api/payout-requests', {
      userId: people.manager!.id,
      momoAccountNumber: '0166009988',
    });
    expect(staff.statusCode).toBe(403);
    expect(staff.json().reason).toBe('NOT_MEMBER');
  });

  it('given an unknown request or member, then 404', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(
      (await call('superAdmin', 'POST', `/api/payout-requests/${unknown}/approve`)).statusCode,
    ).toBe(404);
    expect(
      (
        await call('manager', 'POST', '/api/payout-requests', {
          userId: unknown,
          momoAccountNumber: '0166000002',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('paginates the pending list (10 by default, count of all)', async () => {
    for (let i = 0; i < 3; i++) {
      const grower = await newGrower(clusterB);
      await call('superAdmin', 'POST', '/api/payout-requests', {
        userId: grower.id,
        momoAccountNumber: `01660100${String(i).padStart(2, '0')}`,
      });
    }
    const page1 = (
      await call('otherSuperAdmin', 'GET', '/api/payout-requests?limit=2&page=1')
    ).json();
    const page2 = (
      await call('otherSuperAdmin', 'GET', '/api/payout-requests?limit=2&page=2')
    ).json();
    expect(page1.count).toBe(page2.count);
    expect(page1.count).toBeGreaterThanOrEqual(4);
    expect(page1.data).toHaveLength(2);
    const ids = new Set([...page1.data, ...page2.data].map((r: { id: string }) => r.id));
    expect(ids.size).toBe(page1.data.length + page2.data.length);
  });
});
