import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../../database.js';
import type { RoleCode } from '../../kernel/roles.js';
import { seedCluster, seedUser } from '../../identity/test-support.js';
import { buildTestApp } from '../../test-app.js';
import { SmsOptOuts } from '../optout/opt-outs.js';

/** A grower's opt-out of optional SMS, switched by those who manage growers. */
describe('GET/PUT messaging/growers/{id}/sms-preferences', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  const users = new Map<string, { id: string; role: RoleCode }>();
  let growerId: string;
  let growerUserId: string;

  const as = (name: string) => {
    const u = users.get(name)!;
    return { authorization: `Bearer ${app.jwt.sign({ sub: u.id, role: u.role })}` };
  };
  const url = (id = growerId) => `/api/messaging/growers/${id}/sms-preferences`;
  const get = (who: string, id?: string) =>
    app.inject({ method: 'GET', url: url(id), headers: as(who) });
  const put = (who: string, payload: object, id?: string) =>
    app.inject({ method: 'PUT', url: url(id), headers: as(who), payload });

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    const clusterA = await seedCluster(testDb.db, 'Allada');
    const clusterB = await seedCluster(testDb.db, 'Zè');
    const seed = async (name: string, role: RoleCode, clusterId: string | null) =>
      users.set(name, { id: (await seedUser(testDb.db, role, { clusterId })).id, role });
    await seed('admin', 'ROLE_ADMIN', null);
    await seed('cmA', 'ROLE_CLUSTER_MANAGER', clusterA);
    await seed('cmB', 'ROLE_CLUSTER_MANAGER', clusterB);
    await seed('industrialA', 'ROLE_INDUSTRIAL', clusterA);
    await seed('carrier', 'ROLE_CARRIER', clusterA);
    const plot = {
      productType: 'CAYENNE_LISSE',
      department: 'D03',
      borough: 'C017',
      district: 'A106',
      village: 'A106-003',
      location: 'Parcelle Sékou',
      latitude: 6.6512345,
      longitude: 2.1534567,
      plantingDate: '2026-02-15',
      tifDate: '2026-09-01',
      areaSown: '1.25',
      estimatedProduction: 40,
    };
    const res = await app.inject({
      method: 'POST',
      url: `/api/grower/cluster/${clusterA}`,
      headers: as('cmA'),
      payload: {
        farmerOrganizationId: '',
        user: {
          lastname: 'Houénou',
          firstname: 'Comlan',
          nip: '1234567',
          phone: '97112233',
          email: '',
          contactFullname: 'Afiavi Houénou',
          contactPhone: '66000001',
          department: 'D03',
          borough: 'C017',
          district: 'A106',
          village: 'A106-001',
        },
        grower: { address: 'Près du marché de Sékou', subCooperative: 'SC1' },
        products: [plot],
        accountInfo: { providerName: '', accountNumber: '' },
        momoInfo: { momoNumber: '97112233' },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    growerId = res.json().id;
    growerUserId = res.json().user.id;
  });
  afterAll(async () => app?.close());

  it('reads the choice (none yet) for those who may read the grower', async () => {
    for (const who of ['admin', 'cmA', 'industrialA']) {
      const res = await get(who);
      expect(res.statusCode, `${who}: ${res.body}`).toBe(200);
      expect(res.json()).toEqual({ optedOut: false, changedAt: null, source: null });
    }
  });

  it('lets the cluster manager opt the grower out and back in, and records who', async () => {
    const out = await put('cmA', { optedOut: true });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toMatchObject({ optedOut: true, source: 'STAFF' });
    expect(await SmsOptOuts.of(testDb.db).optedOut(growerUserId)).toBe(true);
    const row = await testDb.db
      .selectFrom('grower_sms_opt_outs')
      .select(['changed_by', 'source'])
      .where('user_id', '=', growerUserId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ changed_by: users.get('cmA')!.id, source: 'STAFF' });
    expect((await get('industrialA')).json()).toMatchObject({ optedOut: true });

    const back = await put('admin', { optedOut: false });
    expect(back.json()).toMatchObject({ optedOut: false, source: 'STAFF' });
    expect(await SmsOptOuts.of(testDb.db).optedOut(growerUserId)).toBe(false);
  });

  it('refuses those who do not manage the grower, unknown growers and a malformed choice', async () => {
    expect((await put('industrialA', { optedOut: true })).statusCode).toBe(403);
    expect((await put('carrier', { optedOut: true })).statusCode).toBe(403);
    const outOfReach = await put('cmB', { optedOut: true });
    expect(outOfReach.statusCode).toBe(403);
    expect(outOfReach.json().message).toBe('Ce producteur n’est pas dans votre périmètre');
    expect((await get('cmB')).statusCode).toBe(403);
    const unknown = await put('cmA', { optedOut: true }, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Producteur introuvable');
    const bad = await put('cmA', { optedOut: 'oui' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Choix invalide');
    const badId = await get('cmA', 'pas-un-id');
    expect(badId.statusCode).toBe(400);
    expect(await SmsOptOuts.of(testDb.db).optedOut(growerUserId)).toBe(false);
    const noToken = await app.inject({ method: 'GET', url: url() });
    expect(noToken.statusCode).toBe(401);
  });
});
