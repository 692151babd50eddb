import { describe, expect, it } from 'vitest';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { identityDemoStep } from '../../../identity/demo/identity.js';
import { DEMO_CLUSTER, DEMO_SECOND_AGGREGATOR, findDemoUser } from '../../../identity/index.js';
import { clustersDemoStep, DEMO_SECOND_CLUSTER } from './clusters.js';
import type { Database } from '../../../database.js';
import { loadDemoSteps } from '../../../test-app.js';

const load = loadDemoSteps;

describe('clusters demo data', () => {
  const testDb = useTestDatabase<Database>();

  it('two clusters, the second aggregator moved into the second (audited), each with its aggregator', async () => {
    const logger = createLogger('silent', false);
    const steps = [identityDemoStep, clustersDemoStep];
    expect(await load({ db: testDb.db, logger }, steps)).toEqual(['identity', 'actors-clusters']);
    expect(await load({ db: testDb.db, logger }, steps)).toEqual([]);

    const clusters = await testDb.db
      .selectFrom('clusters')
      .leftJoin('cluster_settings', 'cluster_settings.cluster_id', 'clusters.id')
      .select(['clusters.id', 'clusters.label', 'cluster_settings.industrial_user_id'])
      .orderBy('clusters.label')
      .execute();
    const aggregator = await findDemoUser(testDb.db, 'agregateur@demo.filiere.bj');
    const second = await findDemoUser(testDb.db, DEMO_SECOND_AGGREGATOR);
    expect(clusters.map((c) => [c.label, c.industrial_user_id])).toEqual([
      [DEMO_CLUSTER, aggregator.id],
      [DEMO_SECOND_CLUSTER, second.id],
    ]);
    expect(second.clusterId).toBe(clusters[1]!.id);
    const moved = await testDb.db
      .selectFrom('events')
      .select('type')
      .where('stream_id', '=', `user-${second.id}`)
      .execute();
    expect(moved.map((e) => e.type)).toContain('UserClusterChanged');
    const configured = await testDb.db
      .selectFrom('events')
      .select('type')
      .where('stream_id', '=', `cluster-${clusters[0]!.id}`)
      .execute();
    expect(configured.map((e) => e.type)).toEqual(['ClusterConfigured']);
  });
});
