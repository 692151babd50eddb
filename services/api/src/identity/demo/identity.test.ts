import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { createLogger, parseConfig, type Logger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildApp } from '../../app.js';
import type { Database } from '../../database.js';
import { product } from '../../modules.js';
import type { RoleCode } from '../../kernel/roles.js';
import { isMemberRole } from '../permissions.js';
import { demoAccounts, DEMO_PASSWORD } from './accounts.js';
import { DEMO_CLUSTER, findDemoUser } from './identity.js';
import { loadDemoSteps } from '../../test-app.js';

/** Every module's demo steps, as `npm start` loads them. */
const loadDemoData = (ctx: { db: Kysely<Database>; logger: Logger }) =>
  loadDemoSteps(ctx, product.demo);

describe('identity demo data', () => {
  const testDb = useTestDatabase<Database>();

  it('every demo account signs in with its role; one aggregator waits; the cluster holds five of them, the SFD among them (and the actors’ members)', async () => {
    const logger = createLogger('silent', false);
    expect(await loadDemoData({ db: testDb.db, logger })).toContain('identity');
    expect(await loadDemoData({ db: testDb.db, logger })).toEqual([]);

    const app = await buildApp({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      db: testDb.db,
      logger,
    });
    const tokens: Record<string, string> = {};
    for (const [i, account] of demoAccounts.entries()) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: account.email, password: DEMO_PASSWORD },
        remoteAddress: `10.9.0.${i + 1}`,
      });
      expect(response.statusCode, account.email).toBe(200);
      expect(response.json().user.role.code).toBe(account.role);
      tokens[account.role] = response.json().access_token;
    }
    const get = (url: string, role: string) =>
      app.inject({ url, headers: { authorization: `Bearer ${tokens[role]}` } });

    // The platform's auditor (README's demo accounts): ROLE_ACCOUNTING outside any
    // organisation, so it reads the integrity panel and every wallet.
    expect(demoAccounts.find((a) => a.role === 'ROLE_ACCOUNTING')?.email).toBe(
      'auditeur@demo.filiere.bj',
    );
    const auditor = (await get('/api/users/me', 'ROLE_ACCOUNTING')).json();
    expect(auditor.organization ?? null).toBeNull();
    expect((await get('/api/audit/integrity', 'ROLE_ACCOUNTING')).statusCode).toBe(200);
    expect((await get('/api/users/count-inactives', 'ROLE_SUPER_ADMIN')).json()).toEqual({
      count: 1,
    });
    const me = (await get('/api/users/me', 'ROLE_INDUSTRIAL')).json();
    expect(me.organization).toMatchObject({
      denomination: 'Ananas Export SA',
      organizationType: 'INDUSTRIAL',
    });
    expect(me.phone).toMatch(/^\+22901\d{8}$/);

    const clusters = (await get('/api/clusters', 'ROLE_ADMIN')).json();
    const allada = clusters.data.find((c: { label: string }) => c.label === DEMO_CLUSTER);
    const inCluster = (
      await get(`/api/users/cluster/${allada.id}?limit=-1`, 'ROLE_CLUSTER_MANAGER')
    ).json() as { data: { email: string | null; role: { code: RoleCode } }[] };
    // Identity's demo puts these five accounts in the cluster (the SFD lends to its growers); the actors' demo steps add only
    // members there (growers, carriers, cooperatives' and suppliers' representatives — the
    // demo supplier's account among them, placed by the suppliers step).
    const emails = inCluster.data.map((u) => u.email);
    expect(emails).toEqual(
      expect.arrayContaining([
        'agregateur@demo.filiere.bj',
        'cooperative@demo.filiere.bj',
        'gestionnaire@demo.filiere.bj',
        'producteur@demo.filiere.bj',
        'sfd@demo.filiere.bj',
      ]),
    );
    const staff = inCluster.data.filter((u) => !isMemberRole(u.role.code));
    expect(staff.map((u) => u.email).sort()).toEqual([
      'agregateur@demo.filiere.bj',
      'gestionnaire@demo.filiere.bj',
      'sfd@demo.filiere.bj',
    ]);
    const types = (await get('/api/organizations', 'ROLE_ADMIN'))
      .json()
      .data.map((o: { organizationType: string }) => o.organizationType);
    for (const type of [
      'INDUSTRIAL',
      'PROVIDER',
      'COOPERATIVE',
      'MICROFINANCE',
      'BANK',
      'PAYMENT_PROVIDER',
    ]) {
      expect(types).toContain(type);
    }

    const ref = await findDemoUser(testDb.db, 'producteur@demo.filiere.bj');
    expect(ref).toMatchObject({
      clusterId: allada.id,
      walletId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    await app.close();
    // It loads the whole product's demo, twice.
  }, 120_000);
});
