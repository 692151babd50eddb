import type { FastifyInstance } from 'fastify';
import { narrowDb, parseConfig } from '@filiere/platform';
import {
  DEMO_CLUSTER,
  DEMO_SECOND_AGGREGATOR,
  findDemoUser,
  type IdentityTables,
} from '../../../identity/index.js';
import type { DemoContext, DemoStep } from '../../../kernel/module.js';
import { ROLE, type RoleCode } from '../../../kernel/roles.js';
import type { ClustersTables } from '../tables.js';

/** The second demo cluster (Atlantique: Zè and Tori-Bossito). */
export const DEMO_SECOND_CLUSTER = 'Cluster Zè – Tori-Bossito';

/**
 * The clusters' demo data (runs first among the actors' steps: the others place their rows
 * in these clusters). Creates the second cluster, moves the second demo aggregator into it
 * through identity's user edit (audited UserClusterChanged), configures the first cluster
 * through 'Configurer mon cluster' as its manager (aggregator: the demo aggregator) and
 * records the second cluster's aggregator, which no cluster manager configures yet.
 */
export const clustersDemoStep: DemoStep = {
  name: 'actors-clusters',
  async run(ctx: DemoContext) {
    // The clusters were set up before the season (about six months ago).
    await ctx.clock.set(ctx.clock.beninMoment(178, 10));
    const app = await ctx.openApp(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
    try {
      await loadClustersDemo(app, ctx);
    } finally {
      await app.close();
    }
  },
};

async function loadClustersDemo(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const db = narrowDb<ClustersTables & IdentityTables>()(ctx.db);
  const superAdmin = await findDemoUser(ctx.db, 'superadmin@demo.filiere.bj');
  const manager = await findDemoUser(ctx.db, 'gestionnaire@demo.filiere.bj');
  const aggregator = await findDemoUser(ctx.db, 'agregateur@demo.filiere.bj');
  const second = await findDemoUser(ctx.db, DEMO_SECOND_AGGREGATOR);

  const call = async (
    who: { id: string },
    role: RoleCode,
    method: 'POST' | 'PATCH',
    url: string,
    payload: Record<string, unknown>,
  ) => {
    const res = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${app.jwt.sign({ sub: who.id, role })}` },
      payload,
    });
    if (res.statusCode >= 300) {
      throw new Error(`demo clusters: ${method} ${url} answered ${res.statusCode} ${res.body}`);
    }
  };

  const secondCluster = await db
    .insertInto('clusters')
    .values({ label: DEMO_SECOND_CLUSTER })
    .returning('id')
    .executeTakeFirstOrThrow();
  await call(superAdmin, ROLE.SUPER_ADMIN, 'PATCH', `/api/users/${second.id}`, {
    clusterId: secondCluster.id,
  });

  const first = await db
    .selectFrom('clusters')
    .select('id')
    .where('label', '=', DEMO_CLUSTER)
    .executeTakeFirstOrThrow();
  if (manager.clusterId !== first.id)
    throw new Error('demo clusters: the manager is not in Allada');
  await call(manager, ROLE.CLUSTER_MANAGER, 'POST', '/api/clusters/create-configs', {
    managerUserId: manager.id,
    clusterName: DEMO_CLUSTER,
    industrialUserId: aggregator.id,
    cooperativeIds: [],
    growersId: [],
  });
  await db
    .insertInto('cluster_settings')
    .values({
      cluster_id: secondCluster.id,
      industrial_user_id: second.id,
      manager_user_id: null,
      updated_by: superAdmin.id,
    })
    .execute();
  ctx.logger.info({ clusters: [DEMO_CLUSTER, DEMO_SECOND_CLUSTER] }, 'demo clusters configured');
}
