import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildApp } from '../../../app.js';
import type { Database } from '../../../database.js';
import { identityDemoStep } from '../../../identity/demo/identity.js';
import { runDemoSteps, type DemoStep } from '../../../kernel/index.js';
import { clustersDemoStep, DEMO_SECOND_CLUSTER } from '../../clusters/demo/clusters.js';
import { cooperativesDemoStep, DEMO_COOPERATIVES } from './cooperatives.js';

const load = (ctx: { db: Kysely<Database>; logger: Logger }, steps: DemoStep[]) =>
  runDemoSteps({ ...ctx, openApp: (config, clock) => buildApp({ config, ...ctx, clock }) }, steps);

describe('cooperatives demo data', () => {
  const testDb = useTestDatabase<Database>();

  it('three cooperatives in the two clusters, each with its representative, once', async () => {
    const logger = createLogger('silent', false);
    const steps = [identityDemoStep, clustersDemoStep, cooperativesDemoStep];
    expect(await load({ db: testDb.db, logger }, steps)).toEqual([
      'identity',
      'actors-clusters',
      'actors-cooperatives',
    ]);
    expect(await load({ db: testDb.db, logger }, steps)).toEqual([]);
    const rows = await testDb.db
      .selectFrom('cooperatives as c')
      .innerJoin('organizations as o', 'o.id', 'c.organization_id')
      .innerJoin('clusters as cl', 'cl.id', 'c.cluster_id')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['o.denomination', 'cl.label', 'u.cluster_id', 'c.cluster_id as row_cluster'])
      .orderBy('c.reference')
      .execute();
    expect(rows.map((r) => r.denomination)).toEqual(DEMO_COOPERATIVES.map((c) => c.label));
    expect(rows.map((r) => r.label)).toContain(DEMO_SECOND_CLUSTER);
    expect(new Set(rows.map((r) => r.label)).size).toBe(2);
    for (const r of rows) expect(r.cluster_id).toBe(r.row_cluster);
  });
});
