import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { seedCluster, seedUser } from '../../../identity/test-support.js';
import type { RoleCode } from '../../../kernel/roles.js';
import { buildTestApp } from '../../../test-app.js';
import type { Database } from '../../../database.js';

/** Allada › Agbanou › Acclohoue (Atlantique). */
const ALLADA = { department: 'D03', borough: 'C017', district: 'A098', village: 'A098-001' };

/**
 * The carriers' calls (spec §7 "Carriers"), their role and reach rules (§6), vehicles with
 * their default capacities (§3), the deactivation and reactivation (§4), French errors (§5, §8).
 */
describe('carriers API', () => {
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
  const call = (key: string | null, method: string, url: string, payload?: unknown) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: key ? who[key]!.headers : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const body = (overrides: Record<string, unknown> = {}) => {
    n++;
    const { user, ...rest } = overrides;
    return {
      user: {
        lastname: 'Kpadonou',
        firstname: `Romuald ${n}`,
        phone: `95${String(200000 + n).slice(-6)}`,
        ...ALLADA,
        ...((user as object) ?? {}),
      },
      carrier: { address: 'Carrefour Agbanou, Allada' },
      cars: [
        { carType: 'BACHEE', registration: `bj ${1000 + n} rb` },
        { carType: 'TERCEL', registration: `BJ ${5000 + n} RB`, emptyWeight: 900 },
      ],
      accountInfo: { providerName: 'Orabank Bénin', accountNumber: `BJ16400${n}` },
      momoInfo: { momoNumber: `95${String(200000 + n).slice(-6)}` },
      ...rest,
    };
  };

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
    clusterA = await seedCluster(testDb.db, `Allada ${Date.now()}`);
    clusterB = await seedCluster(testDb.db, `Zè ${Date.now()}`);
    await as('superAdmin', 'ROLE_SUPER_ADMIN', null);
    await as('managerA', 'ROLE_CLUSTER_MANAGER', clusterA);
    await as('managerB', 'ROLE_CLUSTER_MANAGER', clusterB);
    await as('industrialA', 'ROLE_INDUSTRIAL', clusterA);
    await as('grower', 'ROLE_GROWER', clusterA);
  });
  afterAll(async () => app?.close());

  it('given a cluster manager, when it registers a carrier with two vehicles, then its user (username = phone), row and vehicles exist', async () => {
    const res = await call('managerA', 'POST', '/api/carrier', body());
    expect(res.statusCode, res.body).toBe(201);
    const carrier = res.json();
    expect(carrier.reference).toMatch(/^TRP-\d{6}$/);
    expect(carrier.clusterId).toBe(clusterA);
    expect(carrier.user.username).toBe(carrier.user.phone);
    expect(carrier.user).toMatchObject({
      department: 'D03',
      borough: 'C017',
      district: 'A098',
      village: 'A098-001',
    });
    expect(
      carrier.cars.map((c: { carType: string; registration: string; capacity: number }) => [
        c.carType,
        c.registration,
        c.capacity,
      ]),
    ).toEqual([
      ['BACHEE', expect.stringMatching(/^BJ \d+ RB$/), 1000],
      ['TERCEL', expect.stringMatching(/^BJ \d+ RB$/), 2000],
    ]);
    expect(carrier.cars[1].emptyWeight).toBe(900);
    expect(carrier.accountInfo.providerName).toBe('Orabank Bénin');
    expect(carrier.momoInfo.providerName).toBe('MOOV');
    const role = await testDb.db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select(['r.code', 'u.cluster_id'])
      .where('u.id', '=', carrier.userId)
      .executeTakeFirstOrThrow();
    expect(role).toEqual({ code: 'ROLE_CARRIER', cluster_id: clusterA });
    const detail = await call('industrialA', 'GET', `/api/carrier/${carrier.id}`);
    expect(detail.statusCode).toBe(200);
    expect((await call('managerA', 'GET', `/api/carrier/contracts/${carrier.id}`)).json()).toEqual({
      data: [],
      count: 0,
    });
  });

  it('lists by reach, searches by name, phone or registration, paginates', async () => {
    const a = (
      await call('managerA', 'POST', '/api/carrier', body({ user: { lastname: 'Zinsou' } }))
    ).json();
    const b = (
      await call(
        'superAdmin',
        'POST',
        '/api/carrier',
        body({ clusterId: clusterB, user: { lastname: 'Tossou' } }),
      )
    ).json();
    const ids = async (key: string, url: string) =>
      ((await call(key, 'GET', url)).json().data as { id: string }[]).map((c) => c.id);
    expect(await ids('managerA', '/api/carrier?limit=-1')).toContain(a.id);
    expect(await ids('managerA', '/api/carrier?limit=-1')).not.toContain(b.id);
    expect(await ids('industrialA', '/api/carrier?limit=-1')).not.toContain(b.id);
    expect(await ids('superAdmin', '/api/carrier?limit=-1')).toEqual(
      expect.arrayContaining([a.id, b.id]),
    );
    expect(await ids('superAdmin', '/api/carrier?q=Tossou')).toEqual([b.id]);
    expect(
      await ids('superAdmin', `/api/carrier?q=${encodeURIComponent(b.cars[0].registration)}`),
    ).toEqual([b.id]);
    const page = (await call('superAdmin', 'GET', '/api/carrier?limit=1&page=2')).json();
    expect(page.data).toHaveLength(1);
    expect(page.count).toBeGreaterThanOrEqual(2);
    for (const [method, payload] of [
      ['GET'],
      ['PATCH', { carrier: { address: 'X' } }],
      ['DELETE'],
    ] as const) {
      expect((await call('managerB', method, `/api/carrier/${a.id}`, payload)).statusCode).toBe(
        403,
      );
    }
    expect((await call('managerB', 'GET', `/api/carrier/contracts/${a.id}`)).statusCode).toBe(403);
    expect((await call('grower', 'GET', '/api/carrier')).statusCode).toBe(403);
    expect((await call('industrialA', 'POST', '/api/carrier', body())).statusCode).toBe(403);
    expect(
      (await call('managerA', 'POST', '/api/carrier', body({ clusterId: clusterB }))).statusCode,
    ).toBe(403);
  });

  it('answers bad input with the field’s French message, a used phone or registration with 409', async () => {
    const noType = await call(
      'managerA',
      'POST',
      '/api/carrier',
      body({ cars: [{ registration: 'AA 1 RB' }] }),
    );
    expect(noType.statusCode).toBe(400);
    expect(noType.json().fields['cars.0.carType']).toBe('Ce champ est obligatoire');
    const noReg = await call(
      'managerA',
      'POST',
      '/api/carrier',
      body({ cars: [{ carType: 'CAMION', registration: '' }] }),
    );
    expect(noReg.json().fields['cars.0.registration']).toBe('Ce champ est obligatoire');
    const noAddress = await call(
      'managerA',
      'POST',
      '/api/carrier',
      body({ carrier: { address: '' } }),
    );
    expect(noAddress.json().fields['carrier.address']).toBe('Ce champ est obligatoire');
    const nip = await call(
      'managerA',
      'POST',
      '/api/carrier',
      body({ user: { nip: '12345678901' } }),
    );
    expect(nip.json().fields['user.nip']).toBe('Le NIP est numérique et fait au plus 10 chiffres');
    const village = await call(
      'managerA',
      'POST',
      '/api/carrier',
      body({ user: { village: 'A152-001' } }),
    );
    expect(village.statusCode).toBe(400);
    expect(village.json().fields['user.village']).toBe(
      "Ce village n'est pas dans l'arrondissement choisi",
    );
    const twice = await call(
      'managerA',
      'POST',
      '/api/carrier',
      body({
        cars: [
          { carType: 'CAMION', registration: 'AB 777 RB' },
          { carType: 'TRICYCLE', registration: 'ab  777 rb' },
        ],
      }),
    );
    expect(twice.statusCode).toBe(400);
    expect(twice.json().fields['cars.1.registration']).toBe(
      'Deux véhicules ne peuvent pas avoir la même immatriculation',
    );

    const first = body();
    const created = await call('managerA', 'POST', '/api/carrier', first);
    expect(created.statusCode).toBe(201);
    const phone = await call(
      'managerA',
      'POST',
      '/api/carrier',
      body({ user: { phone: first.user.phone } }),
    );
    expect(phone.statusCode).toBe(409);
    expect(phone.json()).toMatchObject({
      reason: 'PHONE_ALREADY_EXIST',
      message: 'Ce numéro de téléphone est déjà utilisé',
    });
    const before = await testDb.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const reg = await call(
      'managerA',
      'POST',
      '/api/carrier',
      body({ cars: [{ carType: 'PICK_UP', registration: first.cars[1]!.registration }] }),
    );
    expect(reg.statusCode).toBe(409);
    expect(reg.json().reason).toBe('REGISTRATION_ALREADY_EXIST');
    expect(reg.json().fields['cars.0.registration']).toMatch(/est déjà utilisée/);
    // Nothing of the refused carrier stays (user, row and vehicles in one transaction).
    const after = await testDb.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('edits the person, the address and the vehicles (not the payout accounts)', async () => {
    const carrier = (await call('managerA', 'POST', '/api/carrier', body())).json();
    const res = await call('managerA', 'PATCH', `/api/carrier/${carrier.id}`, {
      user: { firstname: 'Gildas', phone: '0195999001' },
      carrier: { address: 'Marché de Zè' },
      cars: [{ carType: 'CAMION', registration: 'ZE 1 RB', capacity: 8000 }],
      accountInfo: { providerName: 'Ecobank Bénin', accountNumber: 'X' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const edited = res.json();
    expect(edited.user.firstname).toBe('Gildas');
    expect(edited.user.phone).toBe('+2290195999001');
    expect(edited.user.username).toBe('+2290195999001');
    expect(edited.carrier.address).toBe('Marché de Zè');
    expect(
      edited.cars.map((c: { registration: string; capacity: number }) => [
        c.registration,
        c.capacity,
      ]),
    ).toEqual([['ZE 1 RB', 8000]]);
    expect(edited.accountInfo.providerName).toBe('Orabank Bénin');
  });

  it('a carrier with an e-mail keeps its phone as username, registered or edited', async () => {
    const carrier = (
      await call(
        'managerA',
        'POST',
        '/api/carrier',
        body({ user: { email: 'romuald@exemple.bj' } }),
      )
    ).json();
    expect(carrier.user.email).toBe('romuald@exemple.bj');
    expect(carrier.user.username).toBe(carrier.user.phone);
    const res = await call('managerA', 'PATCH', `/api/carrier/${carrier.id}`, {
      user: { email: 'gildas@exemple.bj' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.email).toBe('gildas@exemple.bj');
    expect(res.json().user.username).toBe(carrier.user.phone);
  });

  it('DELETE deactivates with the spec’s message; the staff in reach reactivate', async () => {
    const carrier = (
      await call(
        'managerA',
        'POST',
        '/api/carrier',
        body({ user: { lastname: 'Ahouansou', firstname: 'Koffi' } }),
      )
    ).json();
    const del = await call('managerA', 'DELETE', `/api/carrier/${carrier.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().message).toBe(
      'Le transporteur Koffi Ahouansou est désactivé. Il pourra être réactivé',
    );
    const user = await testDb.db
      .selectFrom('users')
      .select('is_active')
      .where('id', '=', carrier.userId)
      .executeTakeFirstOrThrow();
    expect(user.is_active).toBe(false);
    expect(
      (
        (await call('managerA', 'GET', '/api/carrier?limit=-1')).json().data as { id: string }[]
      ).map((c) => c.id),
    ).not.toContain(carrier.id);
    const inactive = (
      await call('managerA', 'GET', '/api/carrier?status=inactive&limit=-1')
    ).json();
    expect(inactive.data.map((c: { id: string }) => c.id)).toContain(carrier.id);
    expect((await call('managerA', 'DELETE', `/api/carrier/${carrier.id}`)).statusCode).toBe(409);
    expect(
      (await call('industrialA', 'PATCH', `/api/carrier/${carrier.id}/reactivate`)).statusCode,
    ).toBe(403);
    const back = await call('managerA', 'PATCH', `/api/carrier/${carrier.id}/reactivate`);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().isActive).toBe(true);
    const audit = (await call('superAdmin', 'GET', `/api/users/${carrier.userId}/audit`)).json();
    expect(audit.data.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['UserRegistered', 'UserDeactivated', 'UserActivated']),
    );
  });

  it('downloads the reach’s carriers with their vehicles as an .xlsx', async () => {
    const carrier = (
      await call('managerB', 'POST', '/api/carrier', body({ user: { lastname: 'Gbaguidi' } }))
    ).json();
    const res = await call('managerB', 'GET', `/api/carrier/download/${who.managerB!.id}`);
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook
      .getWorksheet('Transporteurs')!
      .eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]![0]).toBe('Référence');
    expect(rows[0]![7]).toBe('Véhicules (type, immatriculation, capacité)');
    const line = rows.find((r) => r[0] === carrier.reference)!;
    expect(line[1]).toBe('Gbaguidi');
    expect(line[6]).toBe(2);
    expect(String(line[7])).toMatch(/^Bâchée BJ \d+ RB \(1000 Kg\), Tercel BJ \d+ RB \(2000 Kg\)$/);
    // Only the manager's cluster.
    expect(new Set(rows.slice(1).map((r) => r[10])).size).toBe(1);
    expect(
      (await call('managerB', 'GET', `/api/carrier/download/${who.managerA!.id}`)).statusCode,
    ).toBe(403);
  });
});
