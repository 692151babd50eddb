import { describe, expect, it } from 'vitest';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { identityDemoStep } from '../../../identity/demo/identity.js';
import { clustersDemoStep } from '../../clusters/demo/clusters.js';
import { suppliersDemoStep } from './suppliers.js';
import type { Database } from '../../../database.js';
import { loadDemoSteps } from '../../../test-app.js';

const load = loadDemoSteps;

describe('input suppliers demo data', () => {
  const testDb = useTestDatabase<Database>();

  it('three suppliers with delivery points in Atlantique and the issue’s fertilizers', async () => {
    const logger = createLogger('silent', false);
    const steps = [identityDemoStep, clustersDemoStep, suppliersDemoStep];
    expect(await load({ db: testDb.db, logger }, steps)).toEqual([
      'identity',
      'actors-clusters',
      'actors-suppliers',
    ]);
    const suppliers = await testDb.db
      .selectFrom('input_suppliers as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.id', 's.cluster_id', 'u.cluster_id as user_cluster', 'u.email'])
      .execute();
    expect(suppliers).toHaveLength(3);
    for (const s of suppliers) expect(s.user_cluster, s.email ?? '').toBe(s.cluster_id);
    expect(suppliers.map((s) => s.email)).toContain('fournisseur@demo.filiere.bj');
    const points = await testDb.db
      .selectFrom('supplier_delivery_points')
      .select(['latitude', 'longitude'])
      .execute();
    expect(points.length).toBeGreaterThanOrEqual(3);
    for (const p of points) {
      expect(Number(p.latitude)).toBeGreaterThan(6.3);
      expect(Number(p.latitude)).toBeLessThan(6.9);
      expect(Number(p.longitude)).toBeGreaterThan(2.0);
      expect(Number(p.longitude)).toBeLessThan(2.5);
    }
    const supplied = await testDb.db
      .selectFrom('supplier_fertilizers as sf')
      .innerJoin('fertilizers as f', 'f.id', 'sf.fertilizer_id')
      .select('f.label')
      .distinct()
      .execute();
    expect(supplied.map((f) => f.label).sort()).toEqual(
      expect.arrayContaining([
        'NPK 15-15-15',
        'Urée 46 %',
        'Sulfate de potassium',
        'Rejets de Cayenne lisse',
        'Film polyéthylène noir',
      ]),
    );
  });
});
