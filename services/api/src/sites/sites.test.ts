import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../database.js';
import { seedUser } from '../identity/test-support.js';
import type { RoleCode } from '../kernel/roles.js';
import { buildTestApp } from '../test-app.js';
import { sitesStreamId } from './catalogue.js';
import { MAX_SITES_PER_USER } from './domain/geometry.js';

/**
 * The sites' calls (seasons §7 "Deliveries by code, stores", the zones' plain paths): CRUD on
 * real PostgreSQL, reach (an industrial manages its own only; the super admin reads all),
 * French 400s, coordinates rounded to 7 decimals, the audit trail, the maps' settings and CSP.
 */
describe('sites API', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  const who: Record<string, { id: string; headers: Record<string, string> }> = {};

  const as = async (key: string, role: RoleCode) => {
    const user = await seedUser(testDb.db, role);
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
  const store = {
    label: 'Magasin de Zogbadjè',
    address: 'Zogbadjè, Abomey-Calavi',
    latitude: 6.412345678,
    longitude: 2.345678949,
  };
  const triangle = [
    { latitude: 6.4, longitude: 2.3 },
    { latitude: 6.45, longitude: 2.35 },
    { latitude: 6.38, longitude: 2.4 },
  ];

  beforeAll(async () => {
    app = await buildTestApp(testDb.db, {
      env: { MAP_STYLE_URL: 'https://tiles.example.bj/{z}/{x}/{y}.png', GEOCODER_URL: 'offline' },
    });
    await app.ready();
    await as('industrial', 'ROLE_INDUSTRIAL');
    await as('other', 'ROLE_INDUSTRIAL');
    await as('superAdmin', 'ROLE_SUPER_ADMIN');
    await as('grower', 'ROLE_GROWER');
  });
  afterAll(async () => app?.close());

  it('given an industrial, when it adds, lists, edits and deletes a store, then each answer holds the store with coordinates rounded to 7 decimals, and each change is audited', async () => {
    const me = who.industrial!.id;
    const added = await call('industrial', 'POST', `/api/users/add-site/${me}`, store);
    expect(added.statusCode, added.body).toBe(201);
    const site = added.json();
    expect(site).toMatchObject({
      userId: me,
      label: store.label,
      latitude: 6.4123457,
      longitude: 2.3456789,
    });

    const list = await call('industrial', 'GET', `/api/users/${me}/sites?q=zogbad`);
    expect(list.json()).toMatchObject({ count: 1, data: [{ id: site.id }] });
    expect((await call('industrial', 'GET', `/api/users/${me}/sites?q=nothing`)).json().count).toBe(
      0,
    );

    const edited = await call('industrial', 'PATCH', `/api/users/update-site/${site.id}`, {
      label: 'Magasin principal',
      latitude: '6.5',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      label: 'Magasin principal',
      latitude: 6.5,
      longitude: 2.3456789,
    });

    const gone = await call('industrial', 'DELETE', `/api/users/delete-site/${site.id}`);
    expect(gone.json()).toEqual({ message: 'Magasin supprimé avec succès' });
    expect((await call('industrial', 'GET', `/api/users/site/${site.id}`)).statusCode).toBe(404);

    const events = await testDb.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('stream_id', '=', sitesStreamId(me))
      .orderBy('position')
      .execute();
    expect(events.map((e) => e.type)).toEqual(['SiteAdded', 'SiteUpdated', 'SiteDeleted']);
    expect((events[1]!.data as { fields: string[] }).fields).toEqual(['label', 'latitude']);
  });

  it('given another industrial, when it reads or changes the first one’s stores, then 403 with a French message; the super admin reads them; a grower gets 403', async () => {
    const me = who.industrial!.id;
    const site = (await call('industrial', 'POST', `/api/users/add-site/${me}`, store)).json();

    for (const [method, url, body] of [
      ['GET', `/api/users/${me}/sites`],
      ['GET', `/api/users/site/${site.id}`],
      ['POST', `/api/users/add-site/${me}`, store],
      ['PATCH', `/api/users/update-site/${site.id}`, { label: 'Volé' }],
      ['DELETE', `/api/users/delete-site/${site.id}`],
    ] as const) {
      const res = await call('other', method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe('Vous ne pouvez gérer que vos propres magasins et zones');
    }
    const admin = await call('superAdmin', 'GET', `/api/users/${me}/sites`);
    expect(admin.statusCode).toBe(200);
    expect(admin.json().data.map((s: { id: string }) => s.id)).toContain(site.id);
    expect((await call('superAdmin', 'POST', `/api/users/add-site/${me}`, store)).statusCode).toBe(
      403,
    );
    expect((await call('grower', 'GET', `/api/users/${who.grower!.id}/sites`)).statusCode).toBe(
      403,
    );
    expect((await call(null, 'GET', `/api/users/${me}/sites`)).statusCode).toBe(401);
    const missing = await call(
      'industrial',
      'PATCH',
      '/api/users/update-site/7c1e1b1e-0000-4000-8000-000000000000',
      { label: 'x' },
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Magasin introuvable');
    expect((await call('industrial', 'GET', `/api/users/site/${site.id}`)).json().label).toBe(
      store.label,
    );
  });

  it('given bad input, when a store is added or edited, then 400 with French field messages and nothing written', async () => {
    const me = who.industrial!.id;
    const before = (await call('industrial', 'GET', `/api/users/${me}/sites`)).json().count;
    const res = await call('industrial', 'POST', `/api/users/add-site/${me}`, {
      label: '  ',
      latitude: 91,
      longitude: 'est',
    });
    expect(res.statusCode).toBe(400);
    const { fields } = res.json();
    expect(fields.label).toBe('Ce champ est obligatoire');
    expect(fields.address).toBe('Ce champ est obligatoire');
    expect(fields.latitude).toBe('La latitude est un nombre entre -90 et 90');
    expect(fields.longitude).toBe('La longitude est un nombre entre -180 et 180');
    const empty = await call('industrial', 'PATCH', `/api/users/update-site/${me}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Aucun champ à modifier');
    expect((await call('industrial', 'GET', `/api/users/${me}/sites`)).json().count).toBe(before);
  });

  it('given an industrial with the most stores allowed, when it adds one more, then 400 and the count stays', async () => {
    await as('busy', 'ROLE_INDUSTRIAL');
    const me = who.busy!.id;
    await testDb.db
      .insertInto('user_sites')
      .values(
        Array.from({ length: MAX_SITES_PER_USER }, (_, i) => ({
          user_id: me,
          label: `M${i}`,
          address: 'Cotonou',
          latitude: 6.37,
          longitude: 2.39,
        })),
      )
      .execute();
    const res = await call('busy', 'POST', `/api/users/add-site/${me}`, store);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      `Vous avez déjà ${MAX_SITES_PER_USER} magasins : supprimez-en un avant d’en ajouter`,
    );
  });

  it('given an industrial, when it adds, lists, edits and deletes a coverage zone, then points are rounded, a repeated point is kept once, and fewer than 3 distinct points is a French 400', async () => {
    const added = await call('industrial', 'POST', '/api/coverage-zones', {
      name: 'Bassin de Zè',
      coordinates: [...triangle, { latitude: 6.400000001, longitude: 2.3 }],
    });
    expect(added.statusCode, added.body).toBe(201);
    const zone = added.json();
    expect(zone.coordinates).toEqual(triangle);

    const twoDistinct = await call('industrial', 'POST', '/api/coverage-zones', {
      name: 'Trop petite',
      coordinates: [triangle[0], triangle[1], { latitude: 6.45000000001, longitude: 2.35 }],
    });
    expect(twoDistinct.statusCode).toBe(400);
    expect(twoDistinct.json().fields.coordinates).toBe(
      'Choisissez au moins 3 points distincts sur la carte',
    );
    const noName = await call('industrial', 'POST', '/api/coverage-zones', {
      coordinates: triangle,
    });
    expect(noName.json().fields.name).toBe('Ce champ est obligatoire');

    const list = await call('industrial', 'GET', '/api/coverage-zones?q=z%C3%A8');
    expect(list.json()).toMatchObject({ count: 1, data: [{ id: zone.id, name: 'Bassin de Zè' }] });
    const renamed = await call('industrial', 'PATCH', `/api/coverage-zones/${zone.id}`, {
      name: 'Zè nord',
    });
    expect(renamed.json()).toMatchObject({ name: 'Zè nord', coordinates: triangle });

    expect((await call('other', 'GET', `/api/coverage-zones/${zone.id}`)).statusCode).toBe(403);
    expect(
      (await call('other', 'PATCH', `/api/coverage-zones/${zone.id}`, { name: 'x' })).statusCode,
    ).toBe(403);
    expect((await call('other', 'DELETE', `/api/coverage-zones/${zone.id}`)).statusCode).toBe(403);
    expect(
      (await call('other', 'GET', `/api/coverage-zones?userId=${who.industrial!.id}`)).statusCode,
    ).toBe(403);
    expect((await call('other', 'GET', '/api/coverage-zones')).json().count).toBe(0);
    const admin = await call(
      'superAdmin',
      'GET',
      `/api/coverage-zones?userId=${who.industrial!.id}`,
    );
    expect(admin.json().count).toBe(1);

    const gone = await call('industrial', 'DELETE', `/api/coverage-zones/${zone.id}`);
    expect(gone.json()).toEqual({ message: 'Zone de couverture supprimée avec succès' });
    expect((await call('industrial', 'GET', `/api/coverage-zones/${zone.id}`)).statusCode).toBe(
      404,
    );
  });

  it('gives the maps’ settings to any signed-in user, opens the CSP to the tile origin, and searches addresses in the locations data', async () => {
    const settings = await call('grower', 'GET', '/api/sites/map-settings');
    expect(settings.json()).toEqual({
      styleUrl: 'https://tiles.example.bj/{z}/{x}/{y}.png',
      geocoderUrl: 'offline',
      center: { latitude: 6.37, longitude: 2.39 },
      zoom: 12,
    });
    const csp = String(settings.headers['content-security-policy']);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/tiles\.example\.bj/);
    expect(csp).toMatch(/img-src [^;]*https:\/\/tiles\.example\.bj/);

    const found = await call('grower', 'GET', '/api/sites/address-search?q=acclohoue');
    expect(found.json().data[0]).toEqual({
      code: 'A098-001',
      label: 'ACCLOHOUE, AGBANOU, ALLADA, ATLANTIQUE',
    });
    expect((await call(null, 'GET', '/api/sites/address-search?q=allada')).statusCode).toBe(401);
  });
});
