import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, parseConfig } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildApp } from '../../app.js';
import { identityDemoStep } from '../../identity/demo/identity.js';
import { DEMO_CLUSTER, findDemoUser } from '../../identity/index.js';
import { DEMO_COOPERATIVES, cooperativesDemoStep } from '../cooperatives/demo/cooperatives.js';
import { growersDemoStep } from '../growers/demo/growers.js';
import { clustersDemoStep, DEMO_SECOND_CLUSTER } from './demo/clusters.js';
import { clustersDb, moveIntoCluster } from './queries.js';
import type { Database } from '../../database.js';
import { loadDemoSteps } from '../../test-app.js';

const load = loadDemoSteps;

/**
 * 'Configurer mon cluster' over the demo's actors (cooperatives and growers registered
 * through their own routes): the read-back lists the cluster's cooperatives and growers
 * without cooperative, another cluster's cooperative is refused, and a move takes a
 * cooperative's growers and users along.
 */
describe('cluster configuration over the demo cooperatives and growers', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let manager: { id: string };
  let headers: { authorization: string };

  beforeAll(async () => {
    const logger = createLogger('silent', false);
    await load({ db: testDb.db, logger }, [
      identityDemoStep,
      clustersDemoStep,
      cooperativesDemoStep,
      growersDemoStep,
    ]);
    app = await buildApp({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      db: testDb.db,
      logger,
    });
    manager = await findDemoUser(testDb.db, 'gestionnaire@demo.filiere.bj');
    headers = {
      authorization: `Bearer ${app.jwt.sign({ sub: manager.id, role: 'ROLE_CLUSTER_MANAGER' })}`,
    };
  }, 240_000);
  afterAll(async () => app?.close());

  const coopId = async (label: string) =>
    (
      await testDb.db
        .selectFrom('organizations')
        .select('id')
        .where('denomination', '=', label)
        .executeTakeFirstOrThrow()
    ).id;

  it('reads back the cluster’s cooperatives and its growers without cooperative', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/clusters/config/${manager.id}`,
      headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const config = res.json();
    const allada = await coopId(DEMO_COOPERATIVES[0]!.label);
    expect(config.cooperatives).toEqual([allada]);
    expect(config.options.cooperatives.map((c: { label: string }) => c.label)).toEqual([
      DEMO_COOPERATIVES[0]!.label,
    ]);
    const cluster = await testDb.db
      .selectFrom('clusters')
      .select('id')
      .where('label', '=', DEMO_CLUSTER)
      .executeTakeFirstOrThrow();
    const free = await testDb.db
      .selectFrom('growers')
      .select('id')
      .where('cluster_id', '=', cluster.id)
      .where('cooperative_id', 'is', null)
      .where('deactivated_at', 'is', null)
      .execute();
    expect(free.length).toBeGreaterThan(0);
    expect([...config.growers].sort()).toEqual(free.map((g) => g.id).sort());
    expect(config.options.growers[0]).toMatchObject({ user: { firstname: expect.any(String) } });

    // Saving the read-back as it is changes no actor.
    const saved = await app.inject({
      method: 'POST',
      url: '/api/clusters/create-configs',
      headers,
      payload: {
        managerUserId: manager.id,
        clusterName: config.cluster.label,
        industrialUserId: config.industrial.id,
        cooperativeIds: config.cooperatives,
        growersId: config.growers,
      },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json().data.growers.length).toBe(free.length);
  });

  it('another cluster’s cooperative → 409 naming it; a grower of a cooperative → 400', async () => {
    const ze = await coopId(DEMO_COOPERATIVES[1]!.label);
    const config = (
      await app.inject({ method: 'GET', url: `/api/clusters/config/${manager.id}`, headers })
    ).json();
    const res = await app.inject({
      method: 'POST',
      url: '/api/clusters/create-configs',
      headers,
      payload: {
        clusterName: config.cluster.label,
        industrialUserId: config.industrial.id,
        cooperativeIds: [ze],
      },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      `La coopérative « ${DEMO_COOPERATIVES[1]!.label} » appartient à un autre cluster`,
    );
    const member = await testDb.db
      .selectFrom('growers')
      .select('id')
      .where('cooperative_id', 'is not', null)
      .executeTakeFirstOrThrow();
    const grower = await app.inject({
      method: 'POST',
      url: '/api/clusters/create-configs',
      headers,
      payload: {
        clusterName: config.cluster.label,
        industrialUserId: config.industrial.id,
        growersId: [member.id],
      },
    });
    expect(grower.statusCode).toBe(400);
    expect(grower.json().fields.growersId).toMatch(/appartient à une coopérative/);
  });

  it('a move takes the cooperative’s growers along and returns every user to move', async () => {
    const db = clustersDb(testDb.db);
    const ze = await coopId(DEMO_COOPERATIVES[1]!.label);
    const allada = await db
      .selectFrom('clusters')
      .select('id')
      .where('label', '=', DEMO_CLUSTER)
      .executeTakeFirstOrThrow();
    const second = await db
      .selectFrom('clusters')
      .select('id')
      .where('label', '=', DEMO_SECOND_CLUSTER)
      .executeTakeFirstOrThrow();
    const before = await db
      .selectFrom('growers')
      .select(['user_id', 'cluster_id'])
      .where('cooperative_id', '=', ze)
      .execute();
    expect(before.length).toBeGreaterThan(0);
    expect(new Set(before.map((g) => g.cluster_id))).toEqual(new Set([second.id]));
    const rep = await db
      .selectFrom('cooperatives')
      .select('user_id')
      .where('organization_id', '=', ze)
      .executeTakeFirstOrThrow();
    const users = await db
      .transaction()
      .execute((trx) => moveIntoCluster(trx, allada.id, [ze], []));
    expect(users.sort()).toEqual([rep.user_id, ...before.map((g) => g.user_id)].sort());
    const after = await db
      .selectFrom('growers')
      .select('cluster_id')
      .where('cooperative_id', '=', ze)
      .execute();
    expect(new Set(after.map((g) => g.cluster_id))).toEqual(new Set([allada.id]));
  });
});
