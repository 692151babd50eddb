import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildApp } from '../../../app.js';
import type { Database } from '../../../database.js';
import { identityDemoStep } from '../../../identity/demo/identity.js';
import { runDemoSteps, type DemoStep } from '../../../kernel/index.js';
import { clustersDemoStep } from '../../clusters/demo/clusters.js';
import { carriersDemoStep, DEMO_CARRIERS } from './carriers.js';

const load = (ctx: { db: Kysely<Database>; logger: Logger }, steps: DemoStep[]) =>
  runDemoSteps({ ...ctx, openApp: (config, clock) => buildApp({ config, ...ctx, clock }) }, steps);

describe('carriers demo data', () => {
  const testDb = useTestDatabase<Database>();

  it('four carriers with their vehicles in the two clusters, once', async () => {
    const logger = createLogger('silent', false);
    const steps = [identityDemoStep, clustersDemoStep, carriersDemoStep];
    expect(await load({ db: testDb.db, logger }, steps)).toEqual([
      'identity',
      'actors-clusters',
      'actors-carriers',
    ]);
    expect(await load({ db: testDb.db, logger }, steps)).toEqual([]);
    const carriers = await testDb.db.selectFrom('carriers').select(['id', 'cluster_id']).execute();
    expect(carriers).toHaveLength(4);
    expect(new Set(carriers.map((c) => c.cluster_id)).size).toBe(2);
    const vehicles = await testDb.db.selectFrom('vehicles').select('registration').execute();
    expect(vehicles).toHaveLength(DEMO_CARRIERS.reduce((n, c) => n + c.cars.length, 0));
  });
});
