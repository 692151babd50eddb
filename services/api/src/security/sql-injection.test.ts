import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../test-app.js';
import { withKey } from '../wallet/http/commands/test-support.js';
import { project, seedWorld, type World } from './world.js';
import type { Database } from '../database.js';

/** Quote-laden and SQL-meta strings, as a user could type them into a search box. */
const NASTY = [
  "'",
  '"',
  '\\',
  '%',
  '_',
  '--',
  ';',
  "' OR 1=1 --",
  "' OR '1'='1",
  '"; DROP TABLE users; --',
  "O'Brien",
  'Ali%',
  'Jean_Paul',
  'back\\slash',
  '$1',
  '?',
  '\u0000',
  'a\u0000b',
  'Zoé',
  'ÉLODIE',
  '😀',
  '%_%',
  '\\%',
  '*',
  '.*',
  '[a-z]',
];

/** Names stored with the same characters, so that searches have something to find. */
const NAMES = [
  "O'Brien",
  'Ali%Baba',
  'Jean_Paul',
  'back\\slash',
  'Semi;colon',
  'Dash--dash',
  'Zoé',
];

/** What ILIKE '%q%' with escaped wildcards matches (PostgreSQL strips nothing but zod trims q). */
const contains = (text: string | null | undefined, q: string) =>
  (text ?? '').toLowerCase().includes(q.trim().toLowerCase());

const industrial = (w: World) => w.byRole.get('ROLE_INDUSTRIAL')!;

/**
 * The list routes, each named by its path template (test names are fixed before the world is
 * seeded) and resolved against the seeded world.
 */
const LIST_ROUTES: [template: string, url: (w: World) => string][] = [
  ['/api/users', () => '/api/users'],
  ['/api/users/industrials', () => '/api/users/industrials'],
  ['/api/users/cluster/{clusterId}', (w) => `/api/users/cluster/${w.clusterId}`],
  ['/api/wallet/recipients', () => '/api/wallet/recipients'],
  ['/api/transaction', () => '/api/transaction'],
  ['/api/transaction/user/{industrial}', (w) => `/api/transaction/user/${industrial(w).id}`],
  ['/api/supply', () => '/api/supply'],
  ['/api/supply/momo-card/{industrial}', (w) => `/api/supply/momo-card/${industrial(w).id}`],
  ['/api/supply/bank/{stranger}', (w) => `/api/supply/bank/${w.stranger.id}`],
  ['/api/financement/user/{industrial}', (w) => `/api/financement/user/${industrial(w).id}`],
  // The actors', seasons' and locations' lists.
  ['/api/grower', () => '/api/grower'],
  ['/api/grower/cluster/{clusterId}', (w) => `/api/grower/cluster/${w.clusterId}`],
  ['/api/grower/no-cooperative', () => '/api/grower/no-cooperative'],
  ['/api/input-provider', () => '/api/input-provider'],
  ['/api/input-provider/cluster/{clusterId}', (w) => `/api/input-provider/cluster/${w.clusterId}`],
  ['/api/carrier', () => '/api/carrier'],
  ['/api/farmer-organization', () => '/api/farmer-organization'],
  [
    '/api/farmer-organization/cluster/{clusterId}',
    (w) => `/api/farmer-organization/cluster/${w.clusterId}`,
  ],
  ['/api/clusters/industrials', () => '/api/clusters/industrials'],
  ['/api/seasons', () => '/api/seasons'],
  // The growers' requests (the super admin's own id: every request).
  [
    '/api/user-cluster-grower/get-industrial-requests/{type}/{admin}',
    (w) =>
      `/api/user-cluster-grower/get-industrial-requests/INPUT/${w.byRole.get('ROLE_SUPER_ADMIN')!.id}`,
  ],
  ['/api/season-requests/social', () => '/api/season-requests/social'],
  ['/api/departments', () => '/api/departments'],
  // The sites' lists and the offline address search.
  ['/api/users/{industrial}/sites', (w) => `/api/users/${industrial(w).id}/sites`],
  ['/api/coverage-zones', (w) => `/api/coverage-zones?userId=${industrial(w).id}`],
  ['/api/sites/address-search', () => '/api/sites/address-search'],
];

describe('SQL only through parameters: hostile strings in every search box and filter', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let world: World;
  let admin: Record<string, string>;

  const get = (url: string, query: Record<string, string>) =>
    app.inject({ method: 'GET', url, query, headers: admin });

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
    world = await seedWorld(app, testDb.db);
    admin = world.byRole.get('ROLE_SUPER_ADMIN')!.headers;
    // Users, transfer reasons and financing names carrying the characters searched for.
    const growers = [...world.actors].slice(2, 2 + NAMES.length);
    for (const [i, user] of growers.entries()) {
      await testDb.db
        .updateTable('users')
        .set({ firstname: NAMES[i]!, lastname: `${NAMES[(i + 1) % NAMES.length]!} Nom` })
        .where('id', '=', user.id)
        .execute();
    }
    const aggregator = world.byRole.get('ROLE_INDUSTRIAL')!;
    for (const reason of NAMES) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/wallet/make-transfer',
        headers: withKey(aggregator),
        payload: {
          source: aggregator.walletId,
          destination: world.byRole.get('ROLE_GROWER')!.walletId,
          amount: 10,
          reason,
        },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    await project(testDb.db);
  });
  afterAll(async () => app?.close());

  // One test per route: each route's hostile requests get their own time budget (the routes
  // are fast — a few ms a request — but all of them in one test ran ~1,800 requests in a row).
  describe('every list route answers 200 or 400 (never 500) to every hostile q', () => {
    for (const [template, url] of LIST_ROUTES) {
      it(template, async () => {
        const bad: string[] = [];
        // With the default page too: some lists refuse limit=-1 (400) before q reaches SQL.
        for (const q of NASTY) {
          for (const query of [{ q }, { q, limit: '-1' }] as Record<string, string>[]) {
            const res = await get(url(world), query);
            if (![200, 400].includes(res.statusCode))
              bad.push(`${template} ${JSON.stringify(query)}: ${res.statusCode} ${res.body}`);
            if (res.statusCode === 400) expect(res.json().message).toBeTruthy();
          }
        }
        expect(bad).toEqual([]);
      });
    }
  });

  describe('hostile strings in the other filters (status, type, dates, roles, cluster, page, limit) → 200 or 400', () => {
    const filters = ['status', 'type', 'from', 'to', 'roles', 'clusterId', 'page', 'limit'];
    for (const [template, url] of LIST_ROUTES) {
      it(template, async () => {
        const bad: string[] = [];
        for (const name of filters) {
          for (const value of NASTY) {
            const res = await get(url(world), { [name]: value });
            if (![200, 400].includes(res.statusCode))
              bad.push(`${template} ${name}=${JSON.stringify(value)}: ${res.statusCode}`);
          }
        }
        expect(bad).toEqual([]);
      });
    }
  });

  it('user list search equals a plain in-JS filter of the users', async () => {
    const rows = await testDb.db
      .selectFrom('users as u')
      .leftJoin('organizations as o', 'o.id', 'u.organization_id')
      .select(['u.id', 'u.firstname', 'u.lastname', 'u.email', 'o.denomination'])
      .where('u.deleted_at', 'is', null)
      .execute();
    for (const q of NASTY.filter((s) => !s.includes('\u0000') && s.trim() !== '')) {
      const res = await get('/api/users', { q, limit: '-1' });
      expect(res.statusCode, q).toBe(200);
      const want = rows
        .filter((u) =>
          [u.firstname, u.lastname, u.email, u.denomination].some((t) => contains(t, q)),
        )
        .map((u) => u.id)
        .sort();
      const got = (res.json().data as { id: string }[]).map((u) => u.id).sort();
      expect(got, `q=${JSON.stringify(q)}`).toEqual(want);
    }
  });

  it('recipient search equals a plain in-JS filter (active users, not the caller)', async () => {
    const caller = world.byRole.get('ROLE_SUPER_ADMIN')!;
    const rows = await testDb.db
      .selectFrom('users')
      .select(['id', 'firstname', 'lastname', 'email', 'phone'])
      .where('deleted_at', 'is', null)
      .where('is_active', '=', true)
      .where('id', '!=', caller.id)
      .execute();
    for (const q of NASTY.filter((s) => !s.includes('\u0000') && s.trim() !== '')) {
      const res = await get('/api/wallet/recipients', { q });
      expect(res.statusCode, q).toBe(200);
      const want = rows
        .filter((u) => [u.firstname, u.lastname, u.email, u.phone].some((t) => contains(t, q)))
        .map((u) => u.id)
        .sort();
      const got = (res.json().data as { id: string }[]).map((u) => u.id).sort();
      if (want.length <= 20) expect(got, `q=${JSON.stringify(q)}`).toEqual(want);
      else expect(got.length).toBe(20);
    }
  });

  it('transaction search equals a plain in-JS filter of the rows (reference, reason, names)', async () => {
    const all = (await get('/api/transaction', { limit: '-1' })).json().data as {
      id: string;
      reference: string;
      reason: string | null;
      source: { user: { firstname: string; lastname: string } | null };
      destination: { user: { firstname: string; lastname: string } | null };
    }[];
    expect(all.length).toBeGreaterThan(NAMES.length);
    const name = (u: { firstname: string; lastname: string } | null) =>
      u ? `${u.firstname} ${u.lastname}` : null;
    for (const q of NASTY.filter((s) => !s.includes('\u0000') && s.trim() !== '')) {
      const res = await get('/api/transaction', { q, limit: '-1' });
      expect(res.statusCode, q).toBe(200);
      const want = all
        .filter((t) =>
          [t.reference, t.reason, name(t.source.user), name(t.destination.user)].some((s) =>
            contains(s, q),
          ),
        )
        .map((t) => t.id)
        .sort();
      const got = (res.json().data as { id: string }[]).map((t) => t.id).sort();
      expect(got, `q=${JSON.stringify(q)}`).toEqual(want);
    }
  });

  it('the tables are intact after all of it', async () => {
    const users = await testDb.db.selectFrom('users').select('id').execute();
    expect(users.length).toBeGreaterThanOrEqual(world.actors.length);
    const events = await testDb.db.selectFrom('events').select('position').execute();
    expect(events.length).toBeGreaterThan(0);
  });
});
