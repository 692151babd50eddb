import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import type { RoleCode } from '../../../kernel/roles.js';
import { seedCluster, seedOrganization, seedUser } from '../../../identity/test-support.js';
import { buildTestApp } from '../../../test-app.js';
import type { Database } from '../../../database.js';

/**
 * The growers and plots calls of spec §7, through the app: every call, its role and reach
 * rules (another cluster's grower answers 403, an unknown one 404, as identity does for
 * users), its French errors, and the download read back.
 */
describe('growers and plots API', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let clusterA: string;
  let clusterB: string;
  let coopA: string;
  let coopB: string;
  const users = new Map<string, { id: string; role: RoleCode }>();
  let phoneN = 0;

  const plot = (over: Record<string, unknown> = {}) => ({
    productType: 'CAYENNE_LISSE',
    department: 'D03',
    borough: 'C017',
    district: 'A106',
    village: 'A106-003',
    location: 'Parcelle Sékou',
    latitude: 6.6512345,
    longitude: '2.1534567',
    plantingDate: '2026-02-15',
    tifDate: '2026-09-01',
    areaSown: '1.25',
    estimatedProduction: 40,
    ...over,
  });
  const nextPhone = () => `97${String(++phoneN).padStart(6, '0')}`;
  const growerBody = (
    over: Record<string, unknown> = {},
    userOver: Record<string, unknown> = {},
  ) => {
    const phone = nextPhone();
    return {
      farmerOrganizationId: '',
      user: {
        lastname: 'Houénou',
        firstname: 'Comlan Sèdjro',
        nip: '1234567',
        phone,
        email: '',
        contactFullname: 'Afiavi Houénou',
        contactPhone: '66000001',
        department: 'D03',
        borough: 'C017',
        district: 'A106',
        village: 'A106-001',
        ...userOver,
      },
      grower: { address: 'Près du marché de Sékou', subCooperative: 'SC1' },
      products: [
        plot(),
        plot({ productType: 'PAIN_DE_SUCRE', areaSown: 2.5, location: 'Bas-fond' }),
      ],
      accountInfo: { providerName: 'Ecobank Bénin', accountNumber: 'BJ0061010100' },
      momoInfo: { momoNumber: phone },
      ...over,
    };
  };

  const as = (name: string) => {
    const u = users.get(name)!;
    return { authorization: `Bearer ${app.jwt.sign({ sub: u.id, role: u.role })}` };
  };
  const call = (
    who: string | null,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    app.inject({
      method,
      url,
      headers: who ? as(who) : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  async function create(who: string, clusterId: string, body = growerBody()) {
    const res = await call(who, 'POST', `/api/grower/cluster/${clusterId}`, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    clusterA = await seedCluster(testDb.db, 'Allada');
    clusterB = await seedCluster(testDb.db, 'Zè');
    coopA = await seedOrganization(testDb.db, 'Coopérative Ananas de Sékou', 'COOPERATIVE');
    coopB = await seedOrganization(testDb.db, 'Union des producteurs de Zè', 'COOPERATIVE');
    const seed = async (
      name: string,
      role: RoleCode,
      clusterId: string | null,
      organizationId: string | null = null,
    ) =>
      users.set(name, {
        id: (await seedUser(testDb.db, role, { clusterId, organizationId })).id,
        role,
      });
    await seed('superAdmin', 'ROLE_SUPER_ADMIN', null);
    await seed('admin', 'ROLE_ADMIN', null);
    await seed('cmA', 'ROLE_CLUSTER_MANAGER', clusterA);
    await seed('cmB', 'ROLE_CLUSTER_MANAGER', clusterB);
    await seed('cmNone', 'ROLE_CLUSTER_MANAGER', null);
    await seed('industrialA', 'ROLE_INDUSTRIAL', clusterA);
    await seed('sfdB', 'ROLE_SFD', clusterB);
    await seed('coopA', 'ROLE_FARMER_ORGANIZATION', clusterA, coopA);
    await seed('coopNone', 'ROLE_FARMER_ORGANIZATION', clusterA);
    await seed('coopB', 'ROLE_FARMER_ORGANIZATION', clusterB, coopB);
    // The cooperatives area's rows: each cooperative's cluster (the staff's reach over it).
    for (const [organizationId, user, clusterId, ifu] of [
      [coopA, 'coopA', clusterA, '1000000000001'],
      [coopB, 'coopB', clusterB, '1000000000002'],
    ] as const) {
      await sql`insert into cooperatives (organization_id, user_id, cluster_id, ifu)
        values (${organizationId}, ${users.get(user)!.id}, ${clusterId}, ${ifu})`.execute(
        testDb.db,
      );
    }
    await seed('grower', 'ROLE_GROWER', clusterA);
    await seed('carrier', 'ROLE_CARRIER', clusterA);
  });
  afterAll(async () => app?.close());

  it('POST grower/cluster/{id}: the cluster manager registers a grower with its plots, user and wallet', async () => {
    const body = growerBody({ farmerOrganizationId: coopA });
    const grower = await create('cmA', clusterA, body);
    expect(grower.reference).toMatch(/^PRD-\d{6}$/);
    expect(grower.clusterId).toBe(clusterA);
    expect(grower.farmerOrganization).toEqual({ id: coopA, label: 'Coopérative Ananas de Sékou' });
    expect(grower.user).toMatchObject({
      lastname: 'Houénou',
      phone: `+22901${body.user.phone}`,
      email: null,
      nip: '1234567',
      contactPhone: '+2290166000001',
      village: 'A106-001',
    });
    expect(grower.products).toHaveLength(2);
    expect(grower.products[0]).toMatchObject({
      productType: 'CAYENNE_LISSE',
      productTypeLabel: 'Cayenne lisse',
      latitude: 6.6512345,
      longitude: 2.1534567,
      areaSown: 1.25,
      plantingDate: '2026-02-15',
      location: 'Parcelle Sékou',
    });
    expect(grower.areaSown).toBe(3.75);
    expect(grower.accountInfo).toEqual({
      providerName: 'Ecobank Bénin',
      accountNumber: 'BJ0061010100',
    });
    expect(grower.momoInfo).toEqual({
      providerName: 'MTN',
      momoNumber: `+22901${body.user.phone}`,
    });
    const user = await testDb.db
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select(['roles.code', 'users.cluster_id', 'users.wallet_id'])
      .where('users.id', '=', grower.user.id)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ code: 'ROLE_GROWER', cluster_id: clusterA });
    expect(user.wallet_id).toBeTruthy();
    const events = await testDb.db
      .selectFrom('events')
      .select(['type', 'stream_id'])
      .where('stream_id', 'in', [`grower-${grower.id}`, `user-${grower.user.id}`])
      .execute();
    expect(events.map((e) => e.type).sort()).toEqual(['GrowerRegistered', 'UserRegistered']);
  });

  it('POST: the super admin registers in any cluster; a cluster manager elsewhere, a cooperative, others are refused', async () => {
    await create('superAdmin', clusterB, growerBody({ farmerOrganizationId: coopB }));
    expect(
      (await call('cmA', 'POST', `/api/grower/cluster/${clusterB}`, growerBody())).statusCode,
    ).toBe(403);
    for (const who of ['coopA', 'industrialA', 'grower', 'carrier']) {
      expect(
        (await call(who, 'POST', `/api/grower/cluster/${clusterA}`, growerBody())).statusCode,
        who,
      ).toBe(403);
    }
    expect(
      (await call(null, 'POST', `/api/grower/cluster/${clusterA}`, growerBody())).statusCode,
    ).toBe(401);
    // A role without access is refused before its body is read: 403, not the schema's 400.
    const early = await call('grower', 'POST', `/api/grower/cluster/${clusterA}`, {});
    expect(early.statusCode, early.body).toBe(403);
    const empty = await call('cmA', 'POST', `/api/grower/cluster/${clusterA}`, {});
    expect(empty.json().fields).toEqual({
      user: 'Ce champ est obligatoire',
      momoInfo: 'Ce champ est obligatoire',
    });
    const plotByCoop = await call('coopA', 'PATCH', `/api/product/${crypto.randomUUID()}`, {
      areaSown: 0,
    });
    expect(plotByCoop.statusCode).toBe(403);
    const unknown = await call(
      'superAdmin',
      'POST',
      `/api/grower/cluster/${crypto.randomUUID()}`,
      growerBody(),
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Cluster introuvable');
  });

  it('POST: bad input answers 400 with French field messages; a used phone 409; nothing half-created', async () => {
    const bad = await call('cmA', 'POST', `/api/grower/cluster/${clusterA}`, {
      user: {
        lastname: '',
        phone: '123',
        nip: 'abc',
        department: 'X',
        village: 'A107-001',
        district: 'A106',
      },
      products: [plot({ areaSown: '0', productType: 'ANANAS' })],
      momoInfo: {},
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({
      'user.lastname': 'Ce champ est obligatoire',
      'user.firstname': 'Ce champ est obligatoire',
      'user.nip': 'Le NIP ne contient que des chiffres (au plus 10)',
      'user.department': 'Code de département invalide',
      'products.0.areaSown': 'La superficie emblavée doit être un nombre décimal supérieur à 0',
      'products.0.productType': 'Type d’ananas invalide (Cayenne lisse ou Pain de sucre)',
      'momoInfo.momoNumber': 'Ce champ est obligatoire',
    });
    // The location chain is checked against Benin's tree: an unknown village, a commune of
    // another department.
    const lost = await call(
      'cmA',
      'POST',
      `/api/grower/cluster/${clusterA}`,
      growerBody({}, { village: 'A106-099' }),
    );
    expect(lost.statusCode).toBe(400);
    expect(lost.json().fields).toEqual({ 'user.village': 'Village introuvable' });
    const astray = await call('cmA', 'POST', `/api/grower/cluster/${clusterA}`, {
      ...growerBody(),
      products: [plot({ department: 'D01' })],
    });
    expect(astray.json().fields).toEqual({
      'products.0.borough': "Cette commune n'est pas dans le département choisi",
    });
    const first = growerBody();
    await create('cmA', clusterA, first);
    const before = await testDb.db
      .selectFrom('growers')
      .select(({ fn }) => fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const again = await call(
      'cmA',
      'POST',
      `/api/grower/cluster/${clusterA}`,
      growerBody({}, { phone: first.user.phone }),
    );
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      reason: 'PHONE_ALREADY_EXIST',
      message: 'Ce numéro de téléphone est déjà utilisé',
    });
    const after = await testDb.db
      .selectFrom('growers')
      .select(({ fn }) => fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    const wrongCoop = await call(
      'cmA',
      'POST',
      `/api/grower/cluster/${clusterA}`,
      growerBody({ farmerOrganizationId: users.get('cmA')!.id }),
    );
    expect(wrongCoop.statusCode).toBe(400);
    expect(wrongCoop.json().fields).toEqual({ farmerOrganizationId: 'Coopérative introuvable' });
  });

  it('GET grower: each role sees its reach, searched and paginated, with the sown area summed', async () => {
    const named = await create(
      'cmA',
      clusterA,
      growerBody({ farmerOrganizationId: coopA }, { lastname: 'Zannou', firstname: 'Gbèto' }),
    );
    const list = (who: string, query = '') => call(who, 'GET', `/api/grower${query}`);

    const a = (await list('cmA', '?limit=100')).json();
    expect(a.data.every((g: { clusterId: string }) => g.clusterId === clusterA)).toBe(true);
    expect(a.count).toBe(a.data.length);
    const all = (await list('superAdmin', '?limit=100')).json();
    expect(all.count).toBeGreaterThan(a.count);
    expect((await list('admin', '?limit=100')).json().count).toBe(all.count);
    expect((await list('industrialA', '?limit=100')).json().count).toBe(a.count);
    expect(
      (await list('sfdB', '?limit=100'))
        .json()
        .data.every((g: { clusterId: string }) => g.clusterId === clusterB),
    ).toBe(true);

    // Search by accent-free name, by phone as typed, by reference; newest first.
    const byName = (await list('cmA', '?q=gbeto%20zannou')).json();
    expect(byName.data.map((g: { id: string }) => g.id)).toEqual([named.id]);
    expect(byName.data[0]).toMatchObject({
      reference: named.reference,
      user: { lastname: 'Zannou', firstname: 'Gbèto' },
      farmerOrganization: { id: coopA, label: 'Coopérative Ananas de Sékou' },
      areaSown: 3.75,
      plotCount: 2,
      isActive: true,
    });
    const phone = named.user.phone.slice(-8);
    expect(
      (await list('cmA', `?q=${phone.slice(0, 2)}%20${phone.slice(2)}`)).json().data[0].id,
    ).toBe(named.id);
    expect((await list('cmA', `?q=${named.reference.toLowerCase()}`)).json().data[0].id).toBe(
      named.id,
    );
    expect((await list('cmB', '?q=zannou')).json().count).toBe(0);

    const page1 = (await list('superAdmin', '?limit=2&page=1')).json();
    const page2 = (await list('superAdmin', '?limit=2&page=2')).json();
    expect(page1.data).toHaveLength(2);
    expect(page1.data[0].id).toBe(named.id);
    expect(page2.data[0].id).not.toBe(page1.data[1].id);
    expect(page1.count).toBe(all.count);

    // The cooperative: its own growers, without the cooperative column.
    const coop = (await list('coopA', '?limit=100')).json();
    expect(coop.count).toBeGreaterThan(0);
    expect(
      coop.data.every((g: { farmerOrganization: unknown }) => g.farmerOrganization === null),
    ).toBe(true);
    const coopIds = await testDb.db
      .selectFrom('growers')
      .select('id')
      .where('cooperative_id', '=', coopA)
      .execute();
    expect(coop.count).toBe(coopIds.length);

    // Missing scope, wrong roles, bad query.
    const none = await list('cmNone');
    expect(none.statusCode).toBe(403);
    expect(none.json().reason).toBe('NO_CLUSTER');
    expect((await list('coopNone')).json().reason).toBe('NO_ORGANIZATION');
    for (const who of ['grower', 'carrier']) expect((await list(who)).statusCode).toBe(403);
    const badLimit = await list('cmA', '?limit=1000');
    expect(badLimit.statusCode).toBe(400);
    expect(badLimit.json().fields.limit).toBe(
      'Le champ limit doit avoir une valeur inférieur ou égale à 100',
    );
    expect((await list('cmA', '?status=inactive')).statusCode).toBe(403);
  });

  it('GET grower/{id}: detail in reach; 403 out of reach, 404 unknown; payout hidden from aggregators', async () => {
    const grower = await create(
      'cmA',
      clusterA,
      growerBody({ farmerOrganizationId: coopA }, { phone: '95000001' }),
    );
    const url = `/api/grower/${grower.id}`;
    const detail = (await call('coopA', 'GET', url)).json();
    expect(detail.momoInfo.providerName).toBe('MTN'); // momoNumber is a 97… number
    const moov = await create('cmA', clusterA, {
      ...growerBody(),
      momoInfo: { momoNumber: '95000002' },
    });
    expect(moov.momoInfo).toEqual({ providerName: 'MOOV', momoNumber: '+2290195000002' });
    expect((await call('industrialA', 'GET', url)).json()).toMatchObject({
      accountInfo: null,
      momoInfo: null,
    });
    for (const who of ['cmB', 'sfdB']) {
      const res = await call(who, 'GET', url);
      expect(res.statusCode, who).toBe(403);
      expect(res.json().message).toBe('Ce producteur n’est pas dans votre périmètre');
    }
    const other = await create('superAdmin', clusterA, growerBody());
    expect((await call('coopA', 'GET', `/api/grower/${other.id}`)).statusCode).toBe(403);
    const unknown = await call('cmA', 'GET', `/api/grower/${crypto.randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Producteur introuvable');
    expect((await call('cmA', 'GET', '/api/grower/pas-un-uuid')).json().fields).toEqual({
      id: 'Identifiant invalide',
    });
  });

  it('GET grower/contracts/{id}: the empty state until the contracts context exists; reach as the detail', async () => {
    const grower = await create('cmA', clusterA);
    expect(
      (await call('cmA', 'GET', `/api/grower/contracts/${grower.id}?page=1&q=x`)).json(),
    ).toEqual({ data: [], count: 0 });
    expect((await call('cmB', 'GET', `/api/grower/contracts/${grower.id}`)).statusCode).toBe(403);
  });

  it('GET grower/cluster/{id}, grower/no-cooperative, farmer-organization/{id}/growers: selectors within reach', async () => {
    const loose = await create('cmA', clusterA, growerBody({ farmerOrganizationId: null }));
    const cluster = (
      await call('industrialA', 'GET', `/api/grower/cluster/${clusterA}?limit=-1`)
    ).json();
    expect(cluster.data.length).toBe(cluster.count);
    expect(cluster.data.some((g: { id: string }) => g.id === loose.id)).toBe(true);
    expect((await call('cmA', 'GET', `/api/grower/cluster/${clusterB}`)).statusCode).toBe(403);
    expect((await call('coopA', 'GET', `/api/grower/cluster/${clusterA}`)).statusCode).toBe(403);

    const noCoop = (await call('cmA', 'GET', '/api/grower/no-cooperative?limit=-1')).json();
    expect(noCoop.data.some((g: { id: string }) => g.id === loose.id)).toBe(true);
    expect(
      noCoop.data.every(
        (g: { farmerOrganization: unknown; clusterId: string }) =>
          g.farmerOrganization === null && g.clusterId === clusterA,
      ),
    ).toBe(true);
    expect(
      (await call('superAdmin', 'GET', `/api/grower/no-cooperative?clusterId=${clusterB}`))
        .json()
        .data.every((g: { clusterId: string }) => g.clusterId === clusterB),
    ).toBe(true);
    expect(
      (await call('cmA', 'GET', `/api/grower/no-cooperative?clusterId=${clusterB}`)).statusCode,
    ).toBe(403);

    const ofCoop = (
      await call('coopA', 'GET', `/api/farmer-organization/${coopA}/growers?limit=-1`)
    ).json();
    expect(ofCoop.count).toBeGreaterThan(0);
    expect(
      (await call('cmA', 'GET', `/api/farmer-organization/${coopA}/growers`)).json().count,
    ).toBe(ofCoop.count);
    expect(
      (await call('coopA', 'GET', `/api/farmer-organization/${coopB}/growers`)).statusCode,
    ).toBe(403);
    expect(
      (await call('cmA', 'GET', `/api/farmer-organization/${crypto.randomUUID()}/growers`))
        .statusCode,
    ).toBe(404);
  });

  it('PATCH grower/{id}: identity, address and cooperative change, audited; a payout change is refused', async () => {
    const grower = await create('cmA', clusterA);
    const url = `/api/grower/${grower.id}`;
    const res = await call('cmA', 'PATCH', url, {
      farmerOrganizationId: coopA,
      user: {
        firstname: 'Kossi',
        department: 'D03',
        borough: 'C023',
        district: 'A152',
        village: 'A152-002',
      },
      grower: { address: 'Adjan centre' },
      accountInfo: grower.accountInfo,
      momoInfo: { momoNumber: grower.momoInfo.momoNumber },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      farmerOrganizationId: coopA,
      address: 'Adjan centre',
      user: { firstname: 'Kossi', borough: 'C023', village: 'A152-002' },
    });
    expect((await call('cmA', 'GET', `/api/grower?q=kossi`)).json().data[0].id).toBe(grower.id);
    const changed = await testDb.db
      .selectFrom('events')
      .select('type')
      .where('stream_id', '=', `grower-${grower.id}`)
      .execute();
    expect(changed.map((e) => e.type)).toEqual(['GrowerRegistered', 'GrowerChanged']);

    const payout = await call('cmA', 'PATCH', url, { momoInfo: { momoNumber: '66000009' } });
    expect(payout.statusCode).toBe(403);
    expect(payout.json().reason).toBe('PAYOUT_CHANGE_NEEDS_REQUEST');
    expect(payout.json().message).toMatch(/^Le compte de reversement ne se modifie pas ici/);
    expect(
      (
        await call('cmA', 'PATCH', url, {
          accountInfo: { providerName: 'Orabank Bénin', accountNumber: '1' },
        })
      ).statusCode,
    ).toBe(403);

    expect((await call('cmB', 'PATCH', url, { grower: { address: 'x' } })).statusCode).toBe(403);
    expect((await call('coopA', 'PATCH', url, { grower: { address: 'x' } })).statusCode).toBe(403);
    expect((await call('industrialA', 'PATCH', url, { grower: { address: 'x' } })).statusCode).toBe(
      403,
    );
    const partialAddress = await call('cmA', 'PATCH', url, { user: { department: 'D03' } });
    expect(partialAddress.statusCode).toBe(400);
    expect(partialAddress.json().fields['user.village']).toBe('Ce champ est obligatoire');
    const taken = await create('cmA', clusterA);
    const dup = await call('cmA', 'PATCH', url, { user: { phone: taken.user.phone } });
    expect(dup.statusCode).toBe(409);
  });

  it('POST product, PATCH product/{id}: plots added and changed within reach, audited', async () => {
    const grower = await create('cmA', clusterA);
    const added = await call('cmA', 'POST', '/api/product', {
      ...plot({ location: 'Champ du nord', areaSown: 0.5 }),
      growerId: grower.id,
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      growerId: grower.id,
      location: 'Champ du nord',
      areaSown: 0.5,
    });
    const detail = (await call('cmA', 'GET', `/api/grower/${grower.id}`)).json();
    expect(detail.products).toHaveLength(3);
    expect(detail.areaSown).toBe(4.25);

    const patched = await call('cmA', 'PATCH', `/api/product/${added.json().id}`, {
      areaSown: '3.1',
      tifDate: null,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ areaSown: 3.1, tifDate: null });
    const zero = await call('cmA', 'PATCH', `/api/product/${added.json().id}`, { areaSown: 0 });
    expect(zero.json().fields.areaSown).toBe(
      'La superficie emblavée doit être un nombre décimal supérieur à 0',
    );
    expect(
      (await call('cmB', 'PATCH', `/api/product/${added.json().id}`, { areaSown: 1 })).statusCode,
    ).toBe(403);
    expect(
      (await call('coopA', 'POST', '/api/product', { ...plot(), growerId: grower.id })).statusCode,
    ).toBe(403);
    expect(
      (await call('cmB', 'POST', '/api/product', { ...plot(), growerId: grower.id })).statusCode,
    ).toBe(403);
    const unknownGrower = await call('cmA', 'POST', '/api/product', {
      ...plot(),
      growerId: crypto.randomUUID(),
    });
    expect(unknownGrower.statusCode).toBe(400);
    expect(unknownGrower.json().fields).toEqual({ growerId: 'Producteur introuvable' });
    expect(
      (await call('cmA', 'PATCH', `/api/product/${crypto.randomUUID()}`, { areaSown: 1 }))
        .statusCode,
    ).toBe(404);
    const audit = await call('cmA', 'GET', `/api/grower/${grower.id}/audit`);
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.json().data.map((e: { type: string }) => e.type)).toEqual([
      'PlotChanged',
      'PlotAdded',
      'GrowerRegistered',
    ]);
    expect(audit.json().data[0]).toMatchObject({ actorId: users.get('cmA')!.id });
    expect(audit.json().data[0].data.changes).toContainEqual({
      field: 'area_sown',
      from: 0.5,
      to: 3.1,
    });
    expect((await call('cmB', 'GET', `/api/grower/${grower.id}/audit`)).statusCode).toBe(403);
    expect((await call('industrialA', 'GET', `/api/grower/${grower.id}/audit`)).statusCode).toBe(
      403,
    );
    const events = await testDb.db
      .selectFrom('events')
      .select('type')
      .where('stream_id', '=', `grower-${grower.id}`)
      .orderBy('position')
      .execute();
    expect(events.map((e) => e.type)).toEqual(['GrowerRegistered', 'PlotAdded', 'PlotChanged']);
  });

  it('DELETE grower/{id} and bannish-grower: the super admin bans (deactivates), then reinstates', async () => {
    const grower = await create('cmA', clusterA);
    for (const who of ['cmA', 'admin', 'coopA']) {
      expect((await call(who, 'DELETE', `/api/grower/${grower.id}`)).statusCode, who).toBe(403);
    }
    const banned = await call('superAdmin', 'DELETE', `/api/grower/${grower.id}`);
    expect(banned.statusCode, banned.body).toBe(200);
    expect(banned.json()).toEqual({ message: 'Producteur banni avec succès' });
    const user = await testDb.db
      .selectFrom('users')
      .select('is_active')
      .where('id', '=', grower.user.id)
      .executeTakeFirstOrThrow();
    expect(user.is_active).toBe(false);
    expect((await call('cmA', 'GET', `/api/grower?q=${grower.reference}`)).json().count).toBe(0);
    expect(
      (await call('superAdmin', 'GET', `/api/grower?status=inactive&q=${grower.reference}`)).json()
        .data[0],
    ).toMatchObject({ id: grower.id, isActive: false });
    expect((await call('superAdmin', 'DELETE', `/api/grower/${grower.id}`)).json().message).toBe(
      'Ce producteur est déjà banni',
    );
    expect(
      (await call('cmA', 'PATCH', `/api/grower/${grower.id}`, { grower: { address: 'x' } }))
        .statusCode,
    ).toBe(422);

    const back = await call('superAdmin', 'POST', `/api/grower/${grower.id}/reactivate`);
    expect(back.json()).toEqual({ message: 'Producteur réintégré avec succès' });
    expect((await call('cmA', 'GET', `/api/grower?q=${grower.reference}`)).json().count).toBe(1);

    const wrongUser = await call(
      'superAdmin',
      'GET',
      `/api/users/${users.get('cmA')!.id}/bannish-grower/${grower.id}`,
    );
    expect(wrongUser.statusCode).toBe(404);
    const spec = await call(
      'superAdmin',
      'GET',
      `/api/users/${grower.user.id}/bannish-grower/${grower.id}`,
    );
    expect(spec.json()).toEqual({ message: 'Producteur banni avec succès' });
    const trail = await testDb.db
      .selectFrom('events')
      .select('type')
      .where('stream_id', 'in', [`grower-${grower.id}`, `user-${grower.user.id}`])
      .orderBy('position')
      .execute();
    // The grower's rows are written inside identity's registration: its event comes first.
    expect(trail.map((e) => e.type)).toEqual([
      'GrowerRegistered',
      'UserRegistered',
      'UserDeactivated',
      'GrowerDeactivated',
      'UserActivated',
      'GrowerReactivated',
      'UserDeactivated',
      'GrowerDeactivated',
    ]);
  });

  it('ownership probes: every id-bearing route on another cluster’s grower → 403/404, nothing written', async () => {
    const victim = await create('cmB', clusterB, growerBody({ farmerOrganizationId: coopB }));
    const plotId = victim.products[0].id as string;
    const before = await testDb.db
      .selectFrom('events')
      .select(({ fn }) => fn.max('position').as('p'))
      .executeTakeFirstOrThrow();
    const probes: [string, 'GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown?][] = [];
    for (const who of ['cmA', 'industrialA', 'coopA']) {
      probes.push(
        [who, 'GET', `/api/grower/${victim.id}`],
        [who, 'GET', `/api/grower/contracts/${victim.id}`],
        [who, 'GET', `/api/grower/${victim.id}/audit`],
        [who, 'PATCH', `/api/grower/${victim.id}`, { grower: { address: 'vol' } }],
        [who, 'DELETE', `/api/grower/${victim.id}`],
        [who, 'POST', `/api/grower/${victim.id}/reactivate`],
        [who, 'GET', `/api/users/${victim.user.id}/bannish-grower/${victim.id}`],
        [who, 'POST', '/api/product', { ...plot(), growerId: victim.id }],
        [who, 'PATCH', `/api/product/${plotId}`, { areaSown: 4 }],
        [who, 'GET', `/api/grower/cluster/${clusterB}`],
        [who, 'GET', `/api/farmer-organization/${coopB}/growers`],
      );
    }
    const leaks: string[] = [];
    for (const [who, method, url, payload] of probes) {
      const res = await call(who, method, url, payload);
      if (![403, 404].includes(res.statusCode))
        leaks.push(`${who} ${method} ${url}: ${res.statusCode}`);
    }
    expect(leaks).toEqual([]);
    const after = await testDb.db
      .selectFrom('events')
      .select(({ fn }) => fn.max('position').as('p'))
      .executeTakeFirstOrThrow();
    expect(after.p).toBe(before.p);
    const row = await testDb.db
      .selectFrom('plots')
      .select('area_sown')
      .where('id', '=', plotId)
      .executeTakeFirstOrThrow();
    expect(Number(row.area_sown)).toBe(1.25);
  });

  it('GET grower/download/{x}: the caller’s list as .xlsx with French headers, read back', async () => {
    const named = await create(
      'cmA',
      clusterA,
      growerBody({ farmerOrganizationId: coopA }, { lastname: 'Téléchargé', firstname: 'Ayaba' }),
    );
    const me = users.get('cmA')!.id;
    const res = await call('cmA', 'GET', `/api/grower/download/${me}?q=telecharge`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Producteurs')!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Référence',
      'Nom',
      'Prénoms',
      'Téléphone',
      'Coopérative',
      'Sous-coopérative',
      'Département',
      'Commune',
      'Arrondissement',
      'Village',
      'Adresse',
      'Parcelles',
      'Superficie emblavée (ha)',
      'Production estimée (t)',
      'Numéro mobile money',
      'Opérateur',
      'Statut',
      'Enregistré le (heure du Bénin)',
    ]);
    expect(sheet.rowCount).toBe(2);
    const row = sheet.getRow(2);
    expect(row.getCell(1).value).toBe(named.reference);
    expect(row.getCell(2).value).toBe('Téléchargé');
    expect(row.getCell(5).value).toBe('Coopérative Ananas de Sékou');
    expect(row.getCell(12).value).toBe(2);
    expect(row.getCell(13).value).toBe(3.75);
    expect(row.getCell(14).value).toBe(80);
    expect(row.getCell(16).value).toBe('MTN');
    expect(row.getCell(17).value).toBe('Actif');

    const all = await call('cmA', 'GET', `/api/grower/download/${me}`);
    const full = new ExcelJS.Workbook();
    await full.xlsx.load(all.rawPayload as unknown as ArrayBuffer);
    const count = (await call('cmA', 'GET', '/api/grower?limit=1')).json().count;
    expect(full.getWorksheet('Producteurs')!.rowCount).toBe(count + 1);

    expect(
      (await call('cmA', 'GET', `/api/grower/download/${users.get('cmB')!.id}`)).statusCode,
    ).toBe(403);
    expect(
      (await call('grower', 'GET', `/api/grower/download/${users.get('grower')!.id}`)).statusCode,
    ).toBe(403);
  });
});
