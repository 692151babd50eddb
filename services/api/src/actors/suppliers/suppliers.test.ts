import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import type { RoleCode } from '../../http/auth.js';
import { bearer, seedCluster, seedOrganization, seedUser } from '../../identity/test-support.js';
import { buildTestApp } from '../../test-app.js';
import type { Database } from '../../database.js';

/** Input suppliers through the API: every call, role and reach rules, French errors. */
describe('input suppliers (fournisseurs d’intrant)', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let clusterA: string;
  let clusterB: string;
  const users: Record<string, { id: string; role: RoleCode }> = {};
  let phones = 0;

  const call = (
    who: string | null,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) =>
    app.inject({
      method,
      url,
      headers: who ? bearer(app, users[who]!, users[who]!.role) : {},
      ...(payload ? { payload } : {}),
    });

  const body = (over: Record<string, unknown> = {}) => {
    const n = String(++phones).padStart(2, '0');
    return {
      denomination: `Intrants ${n} SARL`,
      user: {
        lastname: 'Agossou',
        firstname: `Koffi${n}`,
        email: `frn${n}.${Date.now()}@test.bj`,
        nip: '1234567890',
        phone: `961234${n}`,
        rccm: 'RB/COT/19 B 24518',
        ifu: '3201900054321',
      },
      locations: [
        {
          label: 'Magasin',
          address: 'Allada centre',
          latitude: 6.66512349,
          longitude: '2.1512345',
        },
      ],
      fertilizerIds: [1, 2],
      accountInfo: { providerName: 'Ecobank Bénin', accountNumber: 'BJ0660100100000012345678' },
      momoInfo: { momoNumber: `961234${n}` },
      ...over,
    };
  };

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    clusterA = await seedCluster(testDb.db, 'Cluster Allada');
    clusterB = await seedCluster(testDb.db, 'Cluster Zè');
    const seed = async (name: string, role: RoleCode, clusterId: string | null) => {
      users[name] = { id: (await seedUser(testDb.db, role, { clusterId })).id, role };
    };
    await seed('superAdmin', 'ROLE_SUPER_ADMIN', null);
    await seed('admin', 'ROLE_ADMIN', null);
    await seed('managerA', 'ROLE_CLUSTER_MANAGER', clusterA);
    await seed('managerB', 'ROLE_CLUSTER_MANAGER', clusterB);
    await seed('homeless', 'ROLE_CLUSTER_MANAGER', null);
    await seed('industrialA', 'ROLE_INDUSTRIAL', clusterA);
    await seed('grower', 'ROLE_GROWER', clusterA);
    await seed('cooperative', 'ROLE_FARMER_ORGANIZATION', clusterA);
    await seed('auditor', 'ROLE_ACCOUNTING', null);
    users.orgAccountant = {
      id: (
        await seedUser(testDb.db, 'ROLE_ACCOUNTING', {
          clusterId: clusterA,
          organizationId: await seedOrganization(testDb.db, 'Comptables Allada SARL'),
        })
      ).id,
      role: 'ROLE_ACCOUNTING',
    };
  });
  afterAll(async () => app?.close());

  it('the fertilizer catalogue: types, and fertilizers per type', async () => {
    const types = await call('grower', 'GET', '/api/clusters/fertilizer-types');
    expect(types.statusCode).toBe(200);
    expect(types.json().map((t: { label: string }) => t.label)).toEqual([
      'Engrais',
      'Rejets',
      'Film polyéthylène',
      'Produits de traitement',
    ]);
    const engrais = (await call('managerA', 'GET', '/api/clusters/fertilizer-types/1')).json();
    expect(engrais.map((f: { label: string }) => f.label)).toContain('NPK 15-15-15');
    expect(engrais[0].type).toEqual({ id: 1, label: 'Engrais' });
    const unknown = await call('managerA', 'GET', '/api/clusters/fertilizer-types/99');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Type d’intrant introuvable');
    expect((await call(null, 'GET', '/api/clusters/fertilizer-types')).statusCode).toBe(401);
  });

  let supplierA: string;

  it('the cluster manager registers a supplier in its cluster: organisation, user, points, fertilizers', async () => {
    const res = await call('managerA', 'POST', '/api/input-provider', body());
    expect(res.statusCode, res.body).toBe(201);
    const { message, data } = res.json();
    expect(message).toBe("Fournisseur d'intrant a été ajouté avec succès !");
    supplierA = data.id;
    expect(data).toMatchObject({
      reference: expect.stringMatching(/^FRN-\d{6}$/),
      denomination: 'Intrants 01 SARL',
      clusterId: clusterA,
      isActive: true,
      user: { lastname: 'Agossou', phone: '+2290196123401', rccm: 'RB/COT/19 B 24518' },
      locations: [{ label: 'Magasin', latitude: 6.6651235, longitude: 2.1512345 }],
      fertilizers: [
        { id: 1, type: { label: 'Engrais' } },
        { id: 2, type: { label: 'Engrais' } },
      ],
      accountInfo: { providerName: 'Ecobank Bénin' },
      momoInfo: { momoNumber: '+2290196123401' },
    });
    const user = await testDb.db
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .innerJoin('organizations', 'organizations.id', 'users.organization_id')
      .select(['roles.code', 'users.cluster_id', 'organizations.organization_type'])
      .where('users.id', '=', data.user.id)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({
      code: 'ROLE_INPUT_PROVIDER',
      cluster_id: clusterA,
      organization_type: 'PROVIDER',
    });
    // The registration is on the user's audit stream, with who did it.
    const audit = await call('superAdmin', 'GET', `/api/users/${data.user.id}/audit`);
    expect(audit.json().data.at(-1)).toMatchObject({
      type: 'UserRegistered',
      actor: { id: users.managerA!.id },
    });
  });

  it('French 400s: required fields, NIP, IFU, coordinates, phone, fertilizers; 409 on a used phone', async () => {
    const bad = await call('managerA', 'POST', '/api/input-provider', {
      ...body(),
      user: {
        lastname: '',
        firstname: 'A',
        email: 'x',
        nip: '12a',
        phone: '12',
        rccm: '',
        ifu: 'abc',
      },
      locations: [{ label: 'P', address: '', latitude: 'nord', longitude: 500 }],
      fertilizerIds: [],
      accountInfo: { providerName: 'Autre banque', accountNumber: '' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({
      'user.lastname': 'Ce champ est obligatoire',
      'user.email': 'Adresse mail invalide',
      'user.nip': 'Le NIP est numérique et fait au plus 10 chiffres',
      'user.rccm': 'Ce champ est obligatoire',
      'user.ifu': 'L’IFU est numérique (au plus 20 chiffres)',
      'locations.0.address': 'Ce champ est obligatoire',
      'locations.0.latitude': 'La latitude est un nombre entre -90 et 90',
      'locations.0.longitude': 'La longitude est un nombre entre -180 et 180',
      'accountInfo.providerName': 'Ce champ est obligatoire',
    });
    // At least one delivery point and one fertilizer (checked after the role guard).
    const empty = await call(
      'managerA',
      'POST',
      '/api/input-provider',
      body({ locations: [], fertilizerIds: [] }),
    );
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual({
      locations: 'Ajoutez au moins un point de livraison',
      fertilizerIds: 'Choisissez au moins un intrant',
    });
    // The guard answers first: a role that may not register gets 403, not a 400 on the body.
    const grower = await call(
      'grower',
      'POST',
      '/api/input-provider',
      body({ locations: [], fertilizerIds: [] }),
    );
    expect(grower.statusCode).toBe(403);
    // Whatever the body: the guard answers before the body is validated.
    expect((await call(null, 'POST', '/api/input-provider', {})).statusCode).toBe(401);
    expect((await call('grower', 'POST', '/api/input-provider', {})).statusCode).toBe(403);
    expect((await call('grower', 'GET', '/api/input-provider?page=0')).statusCode).toBe(403);
    const unknownFertilizer = await call(
      'managerA',
      'POST',
      '/api/input-provider',
      body({ fertilizerIds: [999] }),
    );
    expect(unknownFertilizer.statusCode).toBe(400);
    expect(unknownFertilizer.json().fields).toEqual({ fertilizerIds: 'Intrant introuvable' });
    const first = (await call('managerA', 'GET', `/api/input-provider/${supplierA}`)).json();
    const taken = body();
    taken.user.phone = first.user.phone.slice(4);
    const dup = await call('managerA', 'POST', '/api/input-provider', taken);
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      reason: 'PHONE_ALREADY_EXIST',
      message: 'Ce numéro de téléphone est déjà utilisé',
    });
  });

  it('lists: search, pagination, reach by cluster; administrators all; GET by cluster', async () => {
    const inB = await call(
      'superAdmin',
      'POST',
      '/api/input-provider',
      body({ clusterId: clusterB }),
    );
    expect(inB.statusCode, inB.body).toBe(201);
    const mine = (await call('managerA', 'GET', '/api/input-provider')).json();
    expect(mine.data.map((s: { id: string }) => s.id)).toEqual([supplierA]);
    expect(mine.data[0]).toMatchObject({ user: { lastname: 'Agossou', firstname: 'Koffi01' } });
    expect((await call('industrialA', 'GET', '/api/input-provider')).json().count).toBe(1);
    expect((await call('superAdmin', 'GET', '/api/input-provider?limit=1')).json()).toMatchObject({
      count: 2,
      data: [expect.anything()],
    });
    const searched = (await call('superAdmin', 'GET', '/api/input-provider?q=koffi01')).json();
    expect(searched.data.map((s: { id: string }) => s.id)).toEqual([supplierA]);
    expect((await call('superAdmin', 'GET', '/api/input-provider?q=9612340')).json().count).toBe(2);
    const byCluster = await call(
      'managerB',
      'GET',
      `/api/input-provider/cluster/${clusterB}?limit=-1`,
    );
    expect(byCluster.json().data.map((s: { id: string }) => s.id)).toEqual([inB.json().data.id]);
    expect(
      (await call('managerB', 'GET', `/api/input-provider/cluster/${clusterA}`)).statusCode,
    ).toBe(403);
    const homeless = await call('homeless', 'GET', '/api/input-provider');
    expect(homeless.statusCode).toBe(403);
    expect(homeless.json().reason).toBe('NO_CLUSTER');
    for (const who of ['grower', 'cooperative']) {
      expect((await call(who, 'GET', '/api/input-provider')).statusCode, who).toBe(403);
    }
  });

  it('ownership probes: another cluster’s supplier cannot be read, edited or deactivated', async () => {
    for (const [method, url, payload] of [
      ['GET', `/api/input-provider/${supplierA}`, undefined],
      ['PATCH', `/api/input-provider/${supplierA}`, { denomination: 'Volé' }],
      ['DELETE', `/api/input-provider/${supplierA}`, undefined],
    ] as const) {
      const res = await call('managerB', method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    // The aggregator reads its cluster's, never edits.
    expect((await call('industrialA', 'GET', `/api/input-provider/${supplierA}`)).statusCode).toBe(
      200,
    );
    expect(
      (
        await call('industrialA', 'PATCH', `/api/input-provider/${supplierA}`, {
          denomination: 'X',
        })
      ).statusCode,
    ).toBe(403);
    // A cluster manager cannot register into another cluster.
    const elsewhere = await call(
      'managerA',
      'POST',
      '/api/input-provider',
      body({ clusterId: clusterB }),
    );
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().message).toBe('Ce cluster n’est pas dans votre périmètre');
    // Unknown id → 404 (French).
    const unknown = await call('superAdmin', 'GET', `/api/input-provider/${users.grower!.id}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Fournisseur d’intrant introuvable');
    const row = await testDb.db
      .selectFrom('organizations')
      .innerJoin('input_suppliers', 'input_suppliers.organization_id', 'organizations.id')
      .select('denomination')
      .where('input_suppliers.id', '=', supplierA)
      .executeTakeFirstOrThrow();
    expect(row.denomination).toBe('Intrants 01 SARL');
  });

  it('PATCH: names, RCCM, delivery points and fertilizers replaced; payout accounts not editable', async () => {
    const res = await call('managerA', 'PATCH', `/api/input-provider/${supplierA}`, {
      denomination: 'Intrants du Sud SARL',
      user: { firstname: 'Koffi-Marc', rccm: 'RB/COT/20 B 1' },
      locations: [
        { label: 'Dépôt de Zè', address: 'Zè, marché', latitude: 6.78, longitude: 2.3 },
        { label: 'Magasin d’Allada', address: 'Allada' },
      ],
      fertilizerIds: [8, 3],
      accountInfo: { providerName: 'Orabank Bénin', accountNumber: 'VOL' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('Mise à jour effectuée avec succès');
    expect(data).toMatchObject({
      denomination: 'Intrants du Sud SARL',
      user: { firstname: 'Koffi-Marc', rccm: 'RB/COT/20 B 1' },
      accountInfo: { providerName: 'Ecobank Bénin', accountNumber: 'BJ0660100100000012345678' },
    });
    expect(data.locations.map((l: { label: string }) => l.label)).toEqual([
      'Dépôt de Zè',
      'Magasin d’Allada',
    ]);
    expect(data.fertilizers.map((f: { label: string }) => f.label)).toEqual([
      'Sulfate de potassium',
      'Film polyéthylène noir',
    ]);
  });

  it('DELETE deactivates (hidden from the list, account inactive); the super admin lists and reactivates', async () => {
    const res = await call('managerA', 'DELETE', `/api/input-provider/${supplierA}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(
      'Le fournisseur d’intrant Koffi-Marc Agossou est désactivé. Il pourra être réactivé',
    );
    expect((await call('managerA', 'GET', '/api/input-provider')).json().count).toBe(0);
    expect((await call('managerA', 'DELETE', `/api/input-provider/${supplierA}`)).statusCode).toBe(
      409,
    );
    expect((await call('managerA', 'GET', '/api/input-provider?status=inactive')).statusCode).toBe(
      403,
    );
    const inactive = (
      await call('superAdmin', 'GET', '/api/input-provider?status=inactive')
    ).json();
    expect(inactive.data.map((s: { id: string; isActive: boolean }) => [s.id, s.isActive])).toEqual(
      [[supplierA, false]],
    );
    const supplier = (await call('superAdmin', 'GET', `/api/input-provider/${supplierA}`)).json();
    const account = await testDb.db
      .selectFrom('users')
      .select('is_active')
      .where('id', '=', supplier.user.id)
      .executeTakeFirstOrThrow();
    expect(account.is_active).toBe(false);

    expect(
      (await call('managerA', 'POST', `/api/input-provider/${supplierA}/reactivate`)).statusCode,
    ).toBe(403);
    const back = await call('superAdmin', 'POST', `/api/input-provider/${supplierA}/reactivate`);
    expect(back.statusCode, back.body).toBe(200);
    expect((await call('managerA', 'GET', '/api/input-provider')).json().count).toBe(1);

    // Every change of the supplier's rows is on its audit trail, with who and when.
    const audit = await call('managerA', 'GET', `/api/input-provider/${supplierA}/audit`);
    expect(audit.statusCode, audit.body).toBe(200);
    expect(
      audit.json().data.map((e: { type: string; actorId: string }) => [e.type, e.actorId]),
    ).toEqual([
      ['SupplierReactivated', users.superAdmin!.id],
      ['SupplierDeactivated', users.managerA!.id],
      ['SupplierUpdated', users.managerA!.id],
      ['SupplierRegistered', users.managerA!.id],
    ]);
    expect(audit.json().data[2].data.fields).toEqual([
      'denomination',
      'rccm',
      'locations',
      'fertilizers',
    ]);
    expect(
      (await call('managerB', 'GET', `/api/input-provider/${supplierA}/audit`)).statusCode,
    ).toBe(403);
    // The platform's auditor (ROLE_ACCOUNTING outside any organisation) reads every trail;
    // an organisation's accountant none.
    expect((await call('auditor', 'GET', `/api/input-provider/${supplierA}/audit`)).json()).toEqual(
      audit.json(),
    );
    expect(
      (await call('orgAccountant', 'GET', `/api/input-provider/${supplierA}/audit`)).statusCode,
    ).toBe(403);
  });
});
