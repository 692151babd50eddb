import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildApp } from '../../app.js';
import type { Database } from '../../database.js';
import { findDemoUser } from '../../identity/index.js';
import { identityDemoStep } from '../../identity/demo/identity.js';
import { runDemoSteps, type DemoStep } from '../../kernel/index.js';
import { DEMO_AGGREGATOR_EMAIL, DEMO_SITES, sitesDemoStep } from './sites.js';

const load = (ctx: { db: Kysely<Database>; logger: Logger }, steps: DemoStep[]) =>
  runDemoSteps({ ...ctx, openApp: (config, clock) => buildApp({ config, ...ctx, clock }) }, steps);

describe('sites demo data', () => {
  const testDb = useTestDatabase<Database>();

  it('two stores and a coverage zone for the demo aggregator, once', async () => {
    const logger = createLogger('silent', false);
    const steps = [identityDemoStep, sitesDemoStep];
    expect(await load({ db: testDb.db, logger }, steps)).toEqual(['identity', 'sites']);
    expect(await load({ db: testDb.db, logger }, steps)).toEqual([]);
    const aggregator = await findDemoUser(testDb.db, DEMO_AGGREGATOR_EMAIL);
    const sites = await testDb.db
      .selectFrom('user_sites')
      .select('label')
      .where('user_id', '=', aggregator.id)
      .execute();
    expect(sites.map((s) => s.label).sort()).toEqual(DEMO_SITES.map((s) => s.label).sort());
    const zones = await testDb.db.selectFrom('coverage_zones').selectAll().execute();
    expect(zones).toHaveLength(1);
    expect(zones[0]!.coordinates).toHaveLength(4);
  });
});
