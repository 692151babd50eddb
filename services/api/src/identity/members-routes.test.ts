import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { ROLE_CODES, type RoleCode } from '../kernel/roles.js';
import { buildTestApp } from '../test-app.js';
import { userStreamId } from './catalogue.js';
import { membersOf } from './members.js';
import { verifyPassword } from './password.js';
import { seedCluster, seedUser } from './test-support.js';
import type { Database } from '../database.js';

/**
 * GET /api/users/{id}/reset-pin (spec §7; §6: only the cluster manager sees reset-PIN): the
 * grower's cluster manager draws a new PIN, sent by SMS; every other role, a manager of
 * another cluster, a manager without a cluster, and a target that is not a grower are refused
 * with a French 403 and nothing is written (ownership probes of this id-bearing route).
 */
describe('GET /api/users/{id}/reset-pin', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let clusterA: string;
  let clusterB: string;
  let manager: { id: string };
  let grower: { id: string; phone: string };
  const byRole = new Map<RoleCode, { id: string }>();

  const headers = (id: string, role: RoleCode) => ({
    authorization: `Bearer ${app.jwt.sign({ sub: id, role, tv: 0 })}`,
  });
  const reset = (userId: string, callerId: string, role: RoleCode) =>
    app.inject({
      method: 'GET',
      url: `/api/users/${userId}/reset-pin`,
      headers: headers(callerId, role),
    });
  const smsCount = async () =>
    Number(
      (
        await testDb.db
          .selectFrom('sms_outbox')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const pinEvents = async (userId: string) =>
    (
      await testDb.db
        .selectFrom('events')
        .select('type')
        .where('stream_id', '=', userStreamId(userId))
        .where('type', '=', 'UserPinReset')
        .execute()
    ).length;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
    clusterA = await seedCluster(testDb.db, 'Cluster PIN A');
    clusterB = await seedCluster(testDb.db, 'Cluster PIN B');
    for (const role of ROLE_CODES) {
      byRole.set(
        role,
        await seedUser(testDb.db, role, {
          clusterId: role === 'ROLE_SUPER_ADMIN' || role === 'ROLE_ADMIN' ? null : clusterA,
        }),
      );
    }
    manager = byRole.get('ROLE_CLUSTER_MANAGER')!;
    const phone = '+2290197554433';
    const u = await membersOf(app).register(
      {
        role: 'ROLE_GROWER',
        firstname: 'Codjo',
        lastname: 'Dossou',
        phone,
        email: null,
        nip: null,
        clusterId: clusterA,
        organizationId: null,
        momoAccountNumber: phone,
        bankName: null,
        bankAccountNumber: null,
      },
      manager.id,
      async (_trx, user) => user,
    );
    grower = { id: u.id, phone };
  });
  afterAll(async () => app?.close());

  it('given the grower’s cluster manager, when it resets the PIN, then 200 with the spec’s message, the SMS carries a 5-digit PIN whose hash is stored, and it is audited', async () => {
    const res = await reset(grower.id, manager.id, 'ROLE_CLUSTER_MANAGER');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      statusCode: 200,
      message: 'Le nouveau code PIN a été envoyé par SMS',
    });
    const sms = await testDb.db
      .selectFrom('sms_outbox')
      .select('text')
      .where('recipient', '=', grower.phone)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const pin = /(\d{5})/.exec(sms.text)![1]!;
    const row = await testDb.db
      .selectFrom('users')
      .select('pin_hash')
      .where('id', '=', grower.id)
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(row.pin_hash, pin)).toBe(true);
    expect(await pinEvents(grower.id)).toBe(1);
    // A second reset draws a new PIN and is audited again.
    expect((await reset(grower.id, manager.id, 'ROLE_CLUSTER_MANAGER')).statusCode).toBe(200);
    expect(await pinEvents(grower.id)).toBe(2);
  });

  it('given any other role, when it resets the PIN, then 403 in French and nothing is sent', async () => {
    const before = await smsCount();
    for (const role of ROLE_CODES.filter((r) => r !== 'ROLE_CLUSTER_MANAGER')) {
      const res = await reset(grower.id, byRole.get(role)!.id, role);
      expect(res.statusCode, role).toBe(403);
      expect(res.json().message).toMatch(/[àéèêôû’]|Vous/);
    }
    expect(await smsCount()).toBe(before);
  });

  it('given a cluster manager of another cluster, or without a cluster, then 403 and nothing is sent', async () => {
    const before = await smsCount();
    const far = await seedUser(testDb.db, 'ROLE_CLUSTER_MANAGER', { clusterId: clusterB });
    const far403 = await reset(grower.id, far.id, 'ROLE_CLUSTER_MANAGER');
    expect(far403.statusCode).toBe(403);
    expect(far403.json().message).toBe('Cet utilisateur n’est pas dans votre périmètre');
    const none = await seedUser(testDb.db, 'ROLE_CLUSTER_MANAGER', { clusterId: null });
    const none403 = await reset(grower.id, none.id, 'ROLE_CLUSTER_MANAGER');
    expect(none403.statusCode).toBe(403);
    expect(none403.json().reason).toBe('NO_CLUSTER');
    expect(await smsCount()).toBe(before);
  });

  it('given a target that is not a grower (a carrier, a staff user, itself), then 403; an unknown id 404; a malformed id 400', async () => {
    for (const role of ['ROLE_CARRIER', 'ROLE_SECRETARY', 'ROLE_CLUSTER_MANAGER'] as const) {
      const res = await reset(byRole.get(role)!.id, manager.id, 'ROLE_CLUSTER_MANAGER');
      expect(res.statusCode, role).toBe(403);
    }
    expect(
      (await reset('00000000-0000-4000-8000-000000000000', manager.id, 'ROLE_CLUSTER_MANAGER'))
        .statusCode,
    ).toBe(404);
    expect((await reset('pas-un-id', manager.id, 'ROLE_CLUSTER_MANAGER')).statusCode).toBe(400);
  });

  it('without a token, then 401', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/users/${grower.id}/reset-pin` });
    expect(res.statusCode).toBe(401);
  });
});
