import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { PushMessage } from '@filiere/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../../database.js';
import { createSms } from '../../identity/index.js';
import { bearer, seedUser } from '../../identity/test-support.js';
import { ROLE, type RoleCode } from '../../kernel/roles.js';
import { buildTestApp } from '../../test-app.js';
import { pushingRuns } from '../pushes.js';

const logger = createLogger('silent', false);

interface Listed {
  count: number;
  data: {
    id: number;
    recipient: string;
    recipientName: string | null;
    kind: string;
    status: string;
    text: string | null;
    failure: string | null;
    seasonId: number | null;
  }[];
}

describe('the admin’s SMS list and counts (GET /api/messaging/sms, /sms/counts)', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  const headers: Partial<Record<RoleCode, { authorization: string }>> = {};
  let grower: { id: string };
  let other: { id: string };

  const as = async (role: RoleCode) => {
    const user = await seedUser(testDb.db, role);
    headers[role] = bearer(app, user, role);
    return user;
  };
  const get = (role: RoleCode | null, url: string) =>
    app.inject({
      method: 'GET',
      url: `/api/messaging${url}`,
      headers: role ? headers[role] : {},
    });

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await sql`truncate sms_outbox`.execute(testDb.db);
    for (const role of [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.ACCOUNTING, ROLE.DIRECTOR]) {
      await as(role);
    }
    grower = await as(ROLE.GROWER);
    other = await seedUser(testDb.db, ROLE.GROWER);
    const sms = createSms({ NODE_ENV: 'test' }, testDb.db, logger);
    await sms.send({
      to: '+2290197000101',
      text: 'Filière : votre nouveau code PIN est 48213. Ne le communiquez à personne.',
      kind: 'pin',
      userId: grower.id,
    });
    await sms.send({
      to: '+2290197000101',
      text: 'Filière : intrants de la demande DEM-000001 livrés, 50 kg.',
      kind: 'input-delivery',
      userId: grower.id,
      seasonId: 7,
    });
    await sms.send({
      to: '+2290197000101',
      text: 'Filière : intrants de la demande DEM-000002 livrés, 20 kg.',
      kind: 'input-delivery',
      userId: grower.id,
      seasonId: 7,
    });
    await sms.send({
      to: '+2290197000202',
      text: 'Filière : demande DEM-000003 acceptée. Votre code de livraison : AGW_123456.',
      kind: 'request-code',
      userId: other.id,
      seasonId: 8,
    });
    // The gateway's outcomes: the first delivery receipt delivered (2 segments billed), the
    // second failed with its French reason, the code sent.
    await sql`update sms_outbox set status = 'delivered', segments = 2, sent_at = now(),
      delivered_at = now() where text like '%DEM-000001%'`.execute(testDb.db);
    await sql`update sms_outbox set status = 'failed', failed_at = now(),
      failure = 'Numéro inconnu ou inactif (Twilio 30005)' where text like '%DEM-000002%'`.execute(
      testDb.db,
    );
    await sql`update sms_outbox set status = 'sent', segments = 1, sent_at = now()
      where kind = 'request-code'`.execute(testDb.db);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is read by the super admin and the admins only (401 without a token, 403 otherwise)', async () => {
    expect((await get(null, '/sms')).statusCode).toBe(401);
    expect((await get(null, '/sms/counts')).statusCode).toBe(401);
    for (const role of [ROLE.ACCOUNTING, ROLE.DIRECTOR, ROLE.GROWER]) {
      expect((await get(role, '/sms')).statusCode).toBe(403);
      expect((await get(role, '/sms/counts')).statusCode).toBe(403);
    }
    for (const role of [ROLE.SUPER_ADMIN, ROLE.ADMIN]) {
      expect((await get(role, '/sms')).statusCode).toBe(200);
      expect((await get(role, '/sms/counts')).statusCode).toBe(200);
    }
  });

  it('lists every message newest first, never the text of a code', async () => {
    const res = await get(ROLE.ADMIN, '/sms');
    const body = res.json() as Listed;
    expect(body.count).toBe(4);
    expect(body.data.map((m) => m.kind)).toEqual([
      'request-code',
      'input-delivery',
      'input-delivery',
      'pin',
    ]);
    const pin = body.data.find((m) => m.kind === 'pin')!;
    const code = body.data.find((m) => m.kind === 'request-code')!;
    expect(pin.text).toBeNull();
    expect(code.text).toBeNull();
    expect(res.body).not.toContain('48213');
    expect(res.body).not.toContain('AGW_123456');
    const failed = body.data.find((m) => m.status === 'failed')!;
    expect(failed).toMatchObject({
      failure: 'Numéro inconnu ou inactif (Twilio 30005)',
      text: 'Filière : intrants de la demande DEM-000002 livrés, 20 kg.',
      seasonId: 7,
    });
  });

  it('searches by number or name, filters by state and by kind, and pages', async () => {
    const byNumber = (await get(ROLE.ADMIN, '/sms?q=0197000202')).json() as Listed;
    expect(byNumber.data.map((m) => m.kind)).toEqual(['request-code']);
    const name = (await get(ROLE.ADMIN, '/sms')).json() as Listed;
    const growerName = name.data.find((m) => m.kind === 'pin')!.recipientName!;
    const byName = (
      await get(ROLE.ADMIN, `/sms?q=${encodeURIComponent(growerName)}`)
    ).json() as Listed;
    expect(byName.count).toBe(3);
    const failed = (await get(ROLE.ADMIN, '/sms?status=failed')).json() as Listed;
    expect(failed.data.map((m) => m.status)).toEqual(['failed']);
    const deliveries = (await get(ROLE.ADMIN, '/sms?kind=input-delivery')).json() as Listed;
    expect(deliveries.count).toBe(2);
    const both = (
      await get(ROLE.ADMIN, '/sms?kind=input-delivery&status=delivered')
    ).json() as Listed;
    expect(both.count).toBe(1);
    const page2 = (await get(ROLE.ADMIN, '/sms?limit=3&page=2')).json() as Listed;
    expect(page2).toMatchObject({ count: 4 });
    expect(page2.data.map((m) => m.kind)).toEqual(['pin']);
    const unknown = await get(ROLE.ADMIN, '/sms?kind=spam');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('Type de message inconnu');
  });

  it('counts per grower and per season: messages, each state and billed segments', async () => {
    const res = await get(ROLE.SUPER_ADMIN, '/sms/counts');
    const body = res.json() as {
      byUser: { userId: string; messages: number }[];
      bySeason: { seasonId: number }[];
    };
    expect(body.byUser).toEqual([
      expect.objectContaining({
        userId: grower.id,
        messages: 3,
        queued: 1,
        sent: 0,
        delivered: 1,
        failed: 1,
        segments: 2,
      }),
      expect.objectContaining({
        userId: other.id,
        messages: 1,
        queued: 0,
        sent: 1,
        delivered: 0,
        failed: 0,
        segments: 1,
      }),
    ]);
    expect(body.bySeason).toEqual([
      { seasonId: 8, messages: 1, segments: 1, queued: 0, sent: 1, delivered: 0, failed: 0 },
      { seasonId: 7, messages: 2, segments: 2, queued: 0, sent: 0, delivered: 1, failed: 1 },
    ]);
  });

  it('pushes sms.changed to the super admin and admins after a run that moved messages', async () => {
    const pushed: PushMessage[][] = [];
    let pending = 2;
    const runner = pushingRuns(
      { runDue: async () => (pending > 0 ? pending-- : 0) },
      testDb.db,
      async (m) => {
        pushed.push(m);
      },
    );
    expect(await runner.runDue()).toBe(2);
    expect(await runner.runDue()).toBe(1);
    expect(await runner.runDue()).toBe(0);
    expect(pushed).toHaveLength(2);
    const readers = await testDb.db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select('u.id')
      .where('r.code', 'in', [ROLE.SUPER_ADMIN, ROLE.ADMIN])
      .execute();
    expect(pushed[0]![0]!.type).toBe('sms.changed');
    expect([...pushed[0]![0]!.userIds].sort()).toEqual(readers.map((r) => r.id).sort());
    expect(pushed[0]![0]!.userIds).not.toContain(grower.id);
  });
});
