import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { identityDemoStep } from '../../../identity/demo/identity.js';
import { clustersDemoStep, DEMO_SECOND_CLUSTER } from '../../clusters/demo/clusters.js';
import { cooperativesDemoStep } from '../../cooperatives/demo/cooperatives.js';
import { DEMO_GROWER_COUNT, growersDemoStep } from './growers.js';
import type { Database } from '../../../database.js';
import { loadDemoSteps } from '../../../test-app.js';

const load = loadDemoSteps;

describe('growers demo data', () => {
  const testDb = useTestDatabase<Database>();

  it('60 growers of Atlantique with 1–3 plots on land, in both clusters and the three cooperatives, once', async () => {
    const logger = createLogger('silent', false);
    const steps = [identityDemoStep, clustersDemoStep, cooperativesDemoStep, growersDemoStep];
    expect(await load({ db: testDb.db, logger }, steps)).toEqual([
      'identity',
      'actors-clusters',
      'actors-cooperatives',
      'actors-growers',
    ]);
    expect(await load({ db: testDb.db, logger }, steps)).toEqual([]);

    const { rows: growers } = await sql<{
      label: string;
      cooperative: string | null;
      commune_code: string;
      plots: number;
      user_cluster: string;
      cluster_id: string;
      phone: string;
    }>`select cl.label, o.denomination as cooperative, g.commune_code, g.cluster_id,
         u.cluster_id as user_cluster, u.phone,
         (select count(*)::int from plots p where p.grower_id = g.id) as plots
       from growers g join clusters cl on cl.id = g.cluster_id join users u on u.id = g.user_id
       left join organizations o on o.id = g.cooperative_id`.execute(testDb.db);
    expect(growers).toHaveLength(DEMO_GROWER_COUNT);
    expect(new Set(growers.map((g) => g.label)).size).toBe(2);
    expect(growers.some((g) => g.label === DEMO_SECOND_CLUSTER)).toBe(true);
    expect(new Set(growers.map((g) => g.cooperative).filter(Boolean)).size).toBe(3);
    expect(growers.some((g) => g.cooperative === null)).toBe(true);
    expect(new Set(growers.map((g) => g.commune_code))).toEqual(
      new Set(['C016', 'C017', 'C022', 'C023']),
    );
    expect(new Set(growers.map((g) => g.phone)).size).toBe(DEMO_GROWER_COUNT);
    for (const g of growers) {
      expect(g.plots).toBeGreaterThanOrEqual(1);
      expect(g.plots).toBeLessThanOrEqual(3);
      expect(g.user_cluster).toBe(g.cluster_id);
    }
    const { rows: plots } = await sql<{ lat: string; lon: string; area: string }>`
      select latitude::text as lat, longitude::text as lon, area_sown::text as area from plots`.execute(
      testDb.db,
    );
    for (const p of plots) {
      expect(Number(p.lat)).toBeGreaterThanOrEqual(6.4);
      expect(Number(p.lat)).toBeLessThanOrEqual(6.75);
      expect(Number(p.lon)).toBeGreaterThanOrEqual(2.05);
      expect(Number(p.lon)).toBeLessThanOrEqual(2.45);
      expect(Number(p.area)).toBeGreaterThanOrEqual(0.5);
      expect(Number(p.area)).toBeLessThanOrEqual(5);
    }
  });
});
