import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { seedCluster, seedUser } from '../../../identity/test-support.js';
import type { RoleCode } from '../../../kernel/roles.js';
import { buildTestApp } from '../../../test-app.js';
import type { Database } from '../../../database.js';

/**
 * The cooperatives' calls (spec §7), their role and reach rules (§6) and French errors
 * (§5, §8), through the real routes, identity's members face and PostgreSQL.
 */
describe('cooperatives API', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let clusterA: string;
  let clusterB: string;
  const who: Record<string, { id: string; headers: Record<string, string> }> = {};
  let n = 0;

  const as = async (key: string, role: RoleCode, clusterId: string | null) => {
    const user = await seedUser(testDb.db, role, { clusterId });
    who[key] = {
      id: user.id,
      headers: { authorization: `Bearer ${app.jwt.sign({ sub: user.id, role })}` },
    };
  };

  const body = (overrides: Record<string, unknown> = {}) => {
    n++;
    return {
      label: `Coopérative des Producteurs d'Ananas ${n}`,
      user: {
        lastname: 'Houngbédji',
        firstname: 'Mathieu',
        nip: '1234567',
        phone: `97${String(100000 + n).slice(-6)}`,
        email: `coop${n}.${Date.now()}@ananas.bj`,
        rccm: 'RB/ALD/23 A 1234',
        ifu: '3202312345678',
        ...((overrides.user as object) ?? {}),
      },
      accountInfo: { providerName: 'Ecobank Bénin', accountNumber: 'BJ0610100100123456789' },
      momoInfo: { momoNumber: `96${String(100000 + n).slice(-6)}` },
      ...Object.fromEntries(Object.entries(overrides).filter(([k]) => k !== 'user')),
    };
  };

  const call = (key: string | null, method: string, url: string, payload?: unknown) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: key ? who[key]!.headers : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
    clusterA = await seedCluster(testDb.db, `Allada ${Date.now()}`);
    clusterB = await seedCluster(testDb.db, `Zè ${Date.now()}`);
    await as('superAdmin', 'ROLE_SUPER_ADMIN', null);
    await as('admin', 'ROLE_ADMIN', null);
    await as('managerA', 'ROLE_CLUSTER_MANAGER', clusterA);
    await as('managerB', 'ROLE_CLUSTER_MANAGER', clusterB);
    await as('managerNone', 'ROLE_CLUSTER_MANAGER', null);
    await as('industrialA', 'ROLE_INDUSTRIAL', clusterA);
    await as('grower', 'ROLE_GROWER', clusterA);
  });
  afterAll(async () => app?.close());

  it('given a cluster manager, when it registers a cooperative in its cluster, then the organisation, its representative and the row exist', async () => {
    const res = await call(
      'managerA',
      'POST',
      `/api/farmer-organization/cluster/${clusterA}`,
      body(),
    );
    expect(res.statusCode, res.body).toBe(201);
    const coop = res.json();
    expect(coop.reference).toMatch(/^COOP-\d{6}$/);
    expect(coop.clusterId).toBe(clusterA);
    expect(coop.isActive).toBe(true);
    expect(coop.user.ifu).toBe('3202312345678');
    expect(coop.user.phone).toMatch(/^\+22901/);
    expect(coop.accountInfo).toEqual({
      providerName: 'Ecobank Bénin',
      accountNumber: 'BJ0610100100123456789',
    });
    expect(coop.momoInfo.providerName).toBe('MTN');
    const rows = await testDb.db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .innerJoin('organizations as o', 'o.id', 'u.organization_id')
      .select(['r.code', 'o.organization_type', 'o.id', 'u.cluster_id'])
      .where('u.id', '=', coop.userId)
      .executeTakeFirstOrThrow();
    expect(rows).toEqual({
      code: 'ROLE_FARMER_ORGANIZATION',
      organization_type: 'COOPERATIVE',
      id: coop.id,
      cluster_id: clusterA,
    });
    // Registration is audited on the representative's stream.
    const audit = await call('superAdmin', 'GET', `/api/users/${coop.userId}/audit`);
    expect(audit.json().data.map((e: { type: string }) => e.type)).toContain('UserRegistered');
  });

  it('lists and finds by search; each role sees its reach; limit=-1 gives the whole cluster', async () => {
    const a = (
      await call(
        'managerA',
        'POST',
        `/api/farmer-organization/cluster/${clusterA}`,
        body({ label: 'Coopérative des Producteurs d’Ananas de Zè' }),
      )
    ).json();
    const b = (
      await call(
        'superAdmin',
        'POST',
        `/api/farmer-organization/cluster/${clusterB}`,
        body({ label: 'Union des Coopératives de Tori-Bossito' }),
      )
    ).json();
    const ids = async (key: string, url: string) =>
      ((await call(key, 'GET', url)).json().data as { id: string }[]).map((c) => c.id);
    expect(await ids('managerA', '/api/farmer-organization?limit=-1')).toContain(a.id);
    expect(await ids('managerA', '/api/farmer-organization?limit=-1')).not.toContain(b.id);
    expect(await ids('industrialA', '/api/farmer-organization?limit=-1')).toContain(a.id);
    expect(await ids('industrialA', '/api/farmer-organization?limit=-1')).not.toContain(b.id);
    const all = await ids('admin', '/api/farmer-organization?limit=-1');
    expect(all).toEqual(expect.arrayContaining([a.id, b.id]));
    const found = (
      await call('superAdmin', 'GET', '/api/farmer-organization?q=Tori-Bossito')
    ).json();
    expect(found.data.map((c: { id: string }) => c.id)).toEqual([b.id]);
    expect(found.count).toBe(1);
    expect(
      await ids('managerA', `/api/farmer-organization/cluster/${clusterA}?limit=-1`),
    ).toContain(a.id);
    expect(
      (await call('managerA', 'GET', `/api/farmer-organization/cluster/${clusterB}`)).statusCode,
    ).toBe(403);
    const page = (
      await call('superAdmin', 'GET', '/api/farmer-organization?limit=1&page=1')
    ).json();
    expect(page.data).toHaveLength(1);
    expect(page.count).toBeGreaterThanOrEqual(2);
    // Out of reach: 403 on the detail, edit and delete.
    for (const [method, payload] of [['GET'], ['PATCH', { label: 'Autre' }], ['DELETE']] as const) {
      const res = await call('managerB', method, `/api/farmer-organization/${a.id}`, payload);
      expect(res.statusCode, `${method} ${res.body}`).toBe(403);
    }
    expect((await call('managerA', 'GET', `/api/farmer-organization/${a.id}`)).json().label).toBe(
      'Coopérative des Producteurs d’Ananas de Zè',
    );
  });

  it('refuses roles and missing scopes with French messages', async () => {
    const grower = await call('grower', 'GET', '/api/farmer-organization');
    expect(grower.statusCode).toBe(403);
    expect(grower.json().message).toBe('Vous n’avez pas accès à cette ressource');
    expect((await call(null, 'GET', '/api/farmer-organization')).statusCode).toBe(401);
    const none = await call('managerNone', 'GET', '/api/farmer-organization');
    expect(none.statusCode).toBe(403);
    expect(none.json()).toMatchObject({ reason: 'NO_CLUSTER' });
    expect(none.json().message).toMatch(/Aucun cluster ne vous est attribué/);
    // The aggregator reads its cluster's cooperatives but registers none.
    const industrial = await call(
      'industrialA',
      'POST',
      `/api/farmer-organization/cluster/${clusterA}`,
      body(),
    );
    expect(industrial.statusCode).toBe(403);
    // A cluster manager registers only in its own cluster.
    const other = await call(
      'managerA',
      'POST',
      `/api/farmer-organization/cluster/${clusterB}`,
      body(),
    );
    expect(other.statusCode).toBe(403);
    const unknown = await call(
      'superAdmin',
      'POST',
      `/api/farmer-organization/cluster/${crypto.randomUUID()}`,
      body(),
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Cluster introuvable');
  });

  it('answers bad input with 400 and the field’s French message, a used phone with 409', async () => {
    const ifu = await call(
      'managerA',
      'POST',
      `/api/farmer-organization/cluster/${clusterA}`,
      body({ user: { ifu: '320231234567' } }),
    );
    expect(ifu.statusCode).toBe(400);
    expect(ifu.json().fields['user.ifu']).toBe('L’IFU doit contenir exactement 13 chiffres');
    const noEmail = body();
    delete (noEmail.user as { email?: string }).email;
    const email = await call(
      'managerA',
      'POST',
      `/api/farmer-organization/cluster/${clusterA}`,
      noEmail,
    );
    expect(email.statusCode).toBe(400);
    expect(email.json().fields['user.email']).toBe('Ce champ est obligatoire');
    const badEmail = await call(
      'managerA',
      'POST',
      `/api/farmer-organization/cluster/${clusterA}`,
      body({ user: { email: 'pas-un-mail' } }),
    );
    expect(badEmail.json().fields['user.email']).toBe('Adresse mail invalide');
    const noLabel = await call(
      'managerA',
      'POST',
      `/api/farmer-organization/cluster/${clusterA}`,
      body({ label: '' }),
    );
    expect(noLabel.json().fields.label).toBe('Ce champ est obligatoire');
    const noBank = await call(
      'managerA',
      'POST',
      `/api/farmer-organization/cluster/${clusterA}`,
      body({ accountInfo: { accountNumber: '1' } }),
    );
    expect(noBank.json().fields['accountInfo.providerName']).toBe('Ce champ est obligatoire');
    const momo = await call(
      'managerA',
      'POST',
      `/api/farmer-organization/cluster/${clusterA}`,
      body({ momoInfo: { momoNumber: '123' } }),
    );
    expect(momo.statusCode).toBe(400);
    expect(momo.json().fields['momoInfo.momoNumber']).toMatch(/Numéro de téléphone invalide/);

    const first = body();
    expect(
      (await call('managerA', 'POST', `/api/farmer-organization/cluster/${clusterA}`, first))
        .statusCode,
    ).toBe(201);
    const again = body({ user: { phone: first.user.phone } });
    const before = await testDb.db
      .selectFrom('organizations')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const dup = await call(
      'managerA',
      'POST',
      `/api/farmer-organization/cluster/${clusterA}`,
      again,
    );
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      reason: 'PHONE_ALREADY_EXIST',
      message: 'Ce numéro de téléphone est déjà utilisé',
    });
    // Nothing is left behind: the organisation was created in the same transaction.
    const after = await testDb.db
      .selectFrom('organizations')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('edits the denomination, the representative’s names, RCCM and IFU (not the payout accounts)', async () => {
    const coop = (
      await call('managerA', 'POST', `/api/farmer-organization/cluster/${clusterA}`, body())
    ).json();
    const res = await call('managerA', 'PATCH', `/api/farmer-organization/${coop.id}`, {
      label: 'Coopérative Ananas d’Allada',
      user: { lastname: 'Adjovi', ifu: '3202399999999', rccm: 'RB/COT/24 B 99' },
      accountInfo: { providerName: 'Orabank Bénin', accountNumber: 'X' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const edited = res.json();
    expect(edited.label).toBe('Coopérative Ananas d’Allada');
    expect(edited.user.lastname).toBe('Adjovi');
    expect(edited.user.ifu).toBe('3202399999999');
    expect(edited.user.rccm).toBe('RB/COT/24 B 99');
    expect(edited.accountInfo.providerName).toBe('Ecobank Bénin');
    const bad = await call('managerA', 'PATCH', `/api/farmer-organization/${coop.id}`, {
      user: { ifu: '12' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      (await call('industrialA', 'PATCH', `/api/farmer-organization/${coop.id}`, { label: 'X' }))
        .statusCode,
    ).toBe(403);
  });

  it('deactivates (soft, with the user) and lets only the super admin list and reactivate', async () => {
    const coop = (
      await call(
        'managerA',
        'POST',
        `/api/farmer-organization/cluster/${clusterA}`,
        body({ label: 'Coopérative de Tori' }),
      )
    ).json();
    const del = await call('managerA', 'DELETE', `/api/farmer-organization/${coop.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().message).toBe(
      'La coopérative Coopérative de Tori est désactivée. Elle pourra être réactivée',
    );
    const user = await testDb.db
      .selectFrom('users')
      .select('is_active')
      .where('id', '=', coop.userId)
      .executeTakeFirstOrThrow();
    expect(user.is_active).toBe(false);
    const active = (await call('managerA', 'GET', '/api/farmer-organization?limit=-1')).json();
    expect(active.data.map((c: { id: string }) => c.id)).not.toContain(coop.id);
    expect(
      (await call('managerA', 'GET', '/api/farmer-organization?status=inactive')).statusCode,
    ).toBe(403);
    const inactive = (
      await call('superAdmin', 'GET', '/api/farmer-organization?status=inactive&limit=-1')
    ).json();
    expect(inactive.data.map((c: { id: string }) => c.id)).toContain(coop.id);
    expect(
      (await call('managerA', 'DELETE', `/api/farmer-organization/${coop.id}`)).statusCode,
    ).toBe(409);
    expect(
      (await call('managerA', 'PATCH', `/api/farmer-organization/${coop.id}/reactivate`))
        .statusCode,
    ).toBe(403);
    const back = await call(
      'superAdmin',
      'PATCH',
      `/api/farmer-organization/${coop.id}/reactivate`,
    );
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().isActive).toBe(true);
    const again = await testDb.db
      .selectFrom('users')
      .select('is_active')
      .where('id', '=', coop.userId)
      .executeTakeFirstOrThrow();
    expect(again.is_active).toBe(true);
  });

  it('organization/{id}/cooperative and /users: the staff in reach and the cooperative itself', async () => {
    const coop = (
      await call('managerA', 'POST', `/api/farmer-organization/cluster/${clusterA}`, body())
    ).json();
    const representative = {
      authorization: `Bearer ${app.jwt.sign({ sub: coop.userId, role: 'ROLE_FARMER_ORGANIZATION' })}`,
    };
    const own = await app.inject({
      method: 'GET',
      url: `/api/organization/${coop.id}/cooperative`,
      headers: representative,
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().id).toBe(coop.id);
    const users = await app.inject({
      method: 'GET',
      url: `/api/organization/${coop.id}/users`,
      headers: representative,
    });
    expect(users.json().data.map((u: { id: string }) => u.id)).toEqual([coop.userId]);
    const other = (
      await call('superAdmin', 'POST', `/api/farmer-organization/cluster/${clusterB}`, body())
    ).json();
    const foreign = await app.inject({
      method: 'GET',
      url: `/api/organization/${other.id}/cooperative`,
      headers: representative,
    });
    expect(foreign.statusCode).toBe(403);
    expect((await call('managerB', 'GET', `/api/organization/${coop.id}/users`)).statusCode).toBe(
      403,
    );
    // Its growers (the growers area's rows), with their sown area, to its representative.
    const member = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId: clusterA });
    const grower = await testDb.db
      .insertInto('growers')
      .values({
        user_id: member.id,
        cluster_id: clusterA,
        cooperative_id: coop.id,
        department_code: 'D03',
        commune_code: 'C017',
        arrondissement_code: 'A098',
        village_code: 'A098-001',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const area of ['1.5', '2.25']) {
      await testDb.db
        .insertInto('plots')
        .values({
          grower_id: grower.id,
          product_type: 'CAYENNE_LISSE',
          department_code: 'D03',
          commune_code: 'C017',
          arrondissement_code: 'A098',
          village_code: 'A098-001',
          name: 'Parcelle',
          area_sown: area,
        })
        .execute();
    }
    const growers = await app.inject({
      method: 'GET',
      url: `/api/organization/${coop.id}/growers`,
      headers: representative,
    });
    expect(growers.statusCode, growers.body).toBe(200);
    expect(growers.json().count).toBe(1);
    expect(growers.json().data[0]).toMatchObject({ id: grower.id, userId: member.id });
    expect(Number(growers.json().data[0].areaSown)).toBe(3.75);
    const foreignGrowers = await app.inject({
      method: 'GET',
      url: `/api/organization/${other.id}/growers`,
      headers: representative,
    });
    expect(foreignGrowers.statusCode).toBe(403);
    expect(
      (await call('managerA', 'GET', `/api/organization/${coop.id}/cooperative`)).statusCode,
    ).toBe(200);
    expect(
      (await call('managerA', 'GET', `/api/organization/${crypto.randomUUID()}/cooperative`))
        .statusCode,
    ).toBe(404);
  });

  it('downloads the reach’s cooperatives as an .xlsx with French headers', async () => {
    const coop = (
      await call(
        'managerB',
        'POST',
        `/api/farmer-organization/cluster/${clusterB}`,
        body({ label: 'Coopérative de Zè-Centre' }),
      )
    ).json();
    const res = await call(
      'managerB',
      'GET',
      `/api/farmer-organization/download/${who.managerB!.id}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook
      .getWorksheet('Coopératives')!
      .eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual([
      'Référence',
      'Dénomination',
      'Nom du représentant',
      'Prénoms',
      'Téléphone',
      'E-mail',
      'RCCM',
      'IFU',
      'Mobile money',
      'Compte bancaire',
      'Cluster',
    ]);
    const line = rows.find((r) => r[0] === coop.reference)!;
    expect(line[1]).toBe('Coopérative de Zè-Centre');
    expect(line[7]).toBe('3202312345678');
    // Only its cluster's.
    expect(rows.slice(1).every((r) => r[10] === rows[1]![10])).toBe(true);
    // Someone else's download link: 403.
    expect(
      (await call('managerB', 'GET', `/api/farmer-organization/download/${who.managerA!.id}`))
        .statusCode,
    ).toBe(403);
  });
});
