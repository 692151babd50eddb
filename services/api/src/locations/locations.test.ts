import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { bearer, seedUser } from '../identity/test-support.js';
import { buildTestApp } from '../test-app.js';
import { up } from './migrations/20261125_0500_locations.js';
import { assertLocationChain, checkLocationChain, resolveVillage } from './index.js';
import type { Database } from '../database.js';

/** Allada (Atlantique), where the demo's pineapple growers live. */
const ATLANTIQUE = 'D03';
const ALLADA = 'C017';
const AGBANOU = 'A098';
const ACCLOHOUE = 'A098-001';
const ALIBORI = 'D01';
const BANIKOARA = 'C001';
const FOUNOUGO = 'A001';

describe('locations: the territorial tree, its routes and the chain check', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let headers: Record<string, string>;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
    const grower = await seedUser(testDb.db, 'ROLE_GROWER');
    headers = bearer(app, grower, 'ROLE_GROWER');
  });
  afterAll(async () => app?.close());

  const counts = async () => {
    const { rows } = await sql<{ level: string; n: number }>`
      SELECT 'departments' AS level, count(*)::int AS n FROM departments
      UNION ALL SELECT 'communes', count(*)::int FROM communes
      UNION ALL SELECT 'arrondissements', count(*)::int FROM arrondissements
      UNION ALL SELECT 'villages', count(*)::int FROM villages`.execute(testDb.db);
    return Object.fromEntries(rows.map((r) => [r.level, r.n]));
  };
  const get = (url: string, withToken = true) =>
    app.inject({ method: 'GET', url, headers: withToken ? headers : {} });

  it('holds 12 departments, 77 communes, 546 arrondissements and 5,304 villages after migration', async () => {
    expect(await counts()).toEqual({
      departments: 12,
      communes: 77,
      arrondissements: 546,
      villages: 5304,
    });
  });

  it('gives villages their arrondissement code and rank: the two OUEDO CENTRE of A094 get two codes', async () => {
    const twins = await testDb.db
      .selectFrom('villages')
      .select(['code', 'rank'])
      .where('arrondissement_code', '=', 'A094')
      .where('name', '=', 'OUEDO CENTRE')
      .orderBy('rank')
      .execute();
    expect(twins).toEqual([
      { code: 'A094-009', rank: 9 },
      { code: 'A094-010', rank: 10 },
    ]);
    expect((await resolveVillage(testDb.db, ACCLOHOUE))?.village).toEqual({
      code: ACCLOHOUE,
      name: 'ACCLOHOUE',
    });
  });

  it('loads again without error or duplicate (the migration is idempotent)', async () => {
    await up(testDb.db);
    expect((await counts()).villages).toBe(5304);
  });

  it('GET /api/departments: the 12 by name, searchable ignoring case and accents', async () => {
    const all = await get('/api/departments');
    expect(all.statusCode).toBe(200);
    expect(all.json().count).toBe(12);
    expect(all.json().data[0]).toEqual({ code: ALIBORI, name: 'ALIBORI' });
    const found = await get(`/api/departments?q=${encodeURIComponent('ouémé')}`);
    expect(found.json()).toEqual({ data: [{ code: 'D10', name: 'OUEME' }], count: 1 });
    expect((await get('/api/departments?q=%25')).json().count).toBe(0);
  });

  it('GET /api/commons/{department}: the communes of a department, or 404', async () => {
    const res = await get(`/api/commons/${ATLANTIQUE}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((c: { name: string }) => c.name)).toEqual([
      'ABOMEY-CALAVI',
      'ALLADA',
      'KPOMASSE',
      'OUIDAH',
      'SO-AVA',
      'TOFFO',
      'TORI-BOSSITO',
      'ZE',
    ]);
    expect(res.json().data[1]).toEqual({
      code: ALLADA,
      name: 'ALLADA',
      departmentCode: ATLANTIQUE,
    });
    expect((await get(`/api/commons/${ATLANTIQUE}?q=abomey`)).json().count).toBe(1);
    const missing = await get('/api/commons/D99');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Département introuvable');
  });

  it('GET /api/common/{commune}: a commune and its department, or 404', async () => {
    const res = await get(`/api/common/${ALLADA}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      department: { code: ATLANTIQUE, name: 'ATLANTIQUE' },
      commune: { code: ALLADA, name: 'ALLADA' },
    });
    const missing = await get('/api/common/C999');
    expect([missing.statusCode, missing.json().message]).toEqual([404, 'Commune introuvable']);
  });

  it('GET /api/borough/{arrondissement}: an arrondissement and its chain, or 404', async () => {
    const res = await get(`/api/borough/${AGBANOU}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      department: { code: ATLANTIQUE, name: 'ATLANTIQUE' },
      commune: { code: ALLADA, name: 'ALLADA' },
      arrondissement: { code: AGBANOU, name: 'AGBANOU' },
    });
    const missing = await get('/api/borough/A999');
    expect([missing.statusCode, missing.json().message]).toEqual([
      404,
      'Arrondissement introuvable',
    ]);
  });

  it('GET /api/district/{village}: a village and its chain, or 404', async () => {
    const res = await get(`/api/district/${ACCLOHOUE}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      department: { code: ATLANTIQUE, name: 'ATLANTIQUE' },
      commune: { code: ALLADA, name: 'ALLADA' },
      arrondissement: { code: AGBANOU, name: 'AGBANOU' },
      village: { code: ACCLOHOUE, name: 'ACCLOHOUE' },
    });
    const missing = await get('/api/district/A098-999');
    expect([missing.statusCode, missing.json().message]).toEqual([404, 'Village introuvable']);
  });

  it('GET /api/boroughs/{department}/{commune}: the arrondissements of a commune of that department', async () => {
    const res = await get(`/api/boroughs/${ATLANTIQUE}/${ALLADA}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(12);
    expect(res.json().data[0]).toEqual({ code: AGBANOU, name: 'AGBANOU', communeCode: ALLADA });
    expect((await get(`/api/boroughs/${ATLANTIQUE}/${ALLADA}?q=centre`)).json().data).toEqual([
      { code: 'A108', name: 'ALLADA CENTRE', communeCode: ALLADA },
    ]);
    // A commune of another department is not found under this one.
    const elsewhere = await get(`/api/boroughs/${ALIBORI}/${ALLADA}`);
    expect([elsewhere.statusCode, elsewhere.json().message]).toEqual([404, 'Commune introuvable']);
  });

  it('GET /api/districts/{department}/{commune}/{arrondissement}: the villages of an arrondissement on that path', async () => {
    const res = await get(`/api/districts/${ATLANTIQUE}/${ALLADA}/${AGBANOU}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(13);
    expect(res.json().data[0]).toEqual({
      code: ACCLOHOUE,
      name: 'ACCLOHOUE',
      arrondissementCode: AGBANOU,
    });
    const q = await get(`/api/districts/${ATLANTIQUE}/${ALLADA}/${AGBANOU}?q=agbanou`);
    expect(q.json().data.map((v: { name: string }) => v.name)).toContain('AGBANOU');
    for (const url of [
      `/api/districts/${ALIBORI}/${ALLADA}/${AGBANOU}`,
      `/api/districts/${ATLANTIQUE}/${BANIKOARA}/${AGBANOU}`,
      `/api/districts/${ATLANTIQUE}/${ALLADA}/${FOUNOUGO}`,
    ]) {
      const wrong = await get(url);
      expect([wrong.statusCode, wrong.json().message], url).toEqual([
        404,
        'Arrondissement introuvable',
      ]);
    }
  });

  const ROUTES = [
    '/api/departments',
    `/api/commons/${ATLANTIQUE}`,
    `/api/common/${ALLADA}`,
    `/api/borough/${AGBANOU}`,
    `/api/district/${ACCLOHOUE}`,
    `/api/boroughs/${ATLANTIQUE}/${ALLADA}`,
    `/api/districts/${ATLANTIQUE}/${ALLADA}/${AGBANOU}`,
  ];

  it('answers 401 without a token on every route', async () => {
    for (const url of ROUTES) expect((await get(url, false)).statusCode, url).toBe(401);
  });

  it('answers 400 with a French field message on a malformed code or search', async () => {
    const cases: [string, string, string][] = [
      ['/api/commons/03', 'departmentCode', 'Code de département invalide (D01 à D12)'],
      ['/api/common/ALLADA', 'communeCode', 'Code de commune invalide (C suivi de 3 chiffres)'],
      [
        '/api/borough/A1',
        'arrondissementCode',
        "Code d'arrondissement invalide (A suivi de 3 chiffres)",
      ],
      ['/api/district/A098', 'villageCode', 'Code de village invalide (A000-000)'],
      [
        `/api/boroughs/${ATLANTIQUE}/X`,
        'communeCode',
        'Code de commune invalide (C suivi de 3 chiffres)',
      ],
      [
        `/api/districts/${ATLANTIQUE}/${ALLADA}/A98`,
        'arrondissementCode',
        "Code d'arrondissement invalide (A suivi de 3 chiffres)",
      ],
      [
        `/api/departments?q=${'x'.repeat(101)}`,
        'q',
        'La recherche doit avoir au plus 100 caractères',
      ],
    ];
    for (const [url, field, message] of cases) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toContain(message);
      expect(Object.values(res.json().fields), url).toEqual([message]);
      expect(Object.keys(res.json().fields)[0], url).toContain(field);
    }
  });

  describe('the chain check (public face)', () => {
    const full = {
      department: ATLANTIQUE,
      commune: ALLADA,
      arrondissement: AGBANOU,
      village: ACCLOHOUE,
    };

    it('accepts a consistent chain and returns it with names', async () => {
      const check = await checkLocationChain(testDb.db, full);
      expect(check).toEqual({
        ok: true,
        chain: {
          department: { code: ATLANTIQUE, name: 'ATLANTIQUE' },
          commune: { code: ALLADA, name: 'ALLADA' },
          arrondissement: { code: AGBANOU, name: 'AGBANOU' },
          village: { code: ACCLOHOUE, name: 'ACCLOHOUE' },
        },
      });
      // Levels not given are skipped (a plot form without department); nothing given is fine.
      const partial = await checkLocationChain(testDb.db, {
        commune: ALLADA,
        village: ACCLOHOUE,
        department: '',
      });
      expect(partial.ok).toBe(true);
      expect(await checkLocationChain(testDb.db, {})).toEqual({ ok: true, chain: {} });
    });

    it('names the first wrong level, top down', async () => {
      const cases: [Record<string, string>, string, string][] = [
        [{ ...full, department: 'D99' }, 'department', 'Département introuvable'],
        [
          { ...full, commune: BANIKOARA },
          'commune',
          "Cette commune n'est pas dans le département choisi",
        ],
        [
          { ...full, arrondissement: FOUNOUGO },
          'arrondissement',
          "Cet arrondissement n'est pas dans la commune choisie",
        ],
        [
          { ...full, village: 'A099-001' },
          'village',
          "Ce village n'est pas dans l'arrondissement choisi",
        ],
        [{ ...full, village: 'A098-999' }, 'village', 'Village introuvable'],
        [
          { commune: BANIKOARA, village: ACCLOHOUE },
          'village',
          "Ce village n'est pas dans la commune choisie",
        ],
      ];
      for (const [codes, field, message] of cases) {
        expect(await checkLocationChain(testDb.db, codes), JSON.stringify(codes)).toEqual({
          ok: false,
          field,
          message,
        });
      }
    });

    it('assertLocationChain throws a 400 naming the field under the caller path', async () => {
      await expect(assertLocationChain(testDb.db, full)).resolves.toMatchObject({
        village: { code: ACCLOHOUE },
      });
      const error = await assertLocationChain(
        testDb.db,
        { ...full, village: 'A099-001' },
        { village: 'user.village' },
      ).catch((e: unknown) => e);
      expect(error).toMatchObject({
        statusCode: 400,
        message: "Localité invalide : ce village n'est pas dans l'arrondissement choisi",
        data: { fields: { 'user.village': "Ce village n'est pas dans l'arrondissement choisi" } },
      });
    });
  });
});
