import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import type { RoleCode } from '../../http/auth.js';
import { bearer, seedCluster, seedOrganization, seedUser } from '../../identity/test-support.js';
import { buildTestApp } from '../../test-app.js';
import type { Database } from '../../database.js';

/** 'Configurer mon cluster' through the API: role and reach rules, read-back, French errors, audit. */
describe('clusters: configuration of a cluster', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let clusterA: string;
  let clusterB: string;
  const users: Record<string, { id: string; role: RoleCode }> = {};
  let aggregator: string;
  let otherAggregator: string;

  const as = (who: string) => bearer(app, users[who]!, users[who]!.role);
  const call = (
    who: string | null,
    method: 'GET' | 'POST',
    url: string,
    payload?: Record<string, unknown>,
  ) =>
    app.inject({
      method,
      url,
      headers: who ? as(who) : {},
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    clusterA = await seedCluster(testDb.db, 'Cluster Allada');
    clusterB = await seedCluster(testDb.db, 'Cluster Zè');
    const seed = async (name: string, role: RoleCode, clusterId: string | null) => {
      const { id } = await seedUser(testDb.db, role, { clusterId });
      users[name] = { id, role };
    };
    await seed('managerA', 'ROLE_CLUSTER_MANAGER', clusterA);
    await seed('managerB', 'ROLE_CLUSTER_MANAGER', clusterB);
    await seed('homeless', 'ROLE_CLUSTER_MANAGER', null);
    await seed('sfdA', 'ROLE_SFD', clusterA);
    await seed('superAdmin', 'ROLE_SUPER_ADMIN', null);
    await seed('admin', 'ROLE_ADMIN', null);
    await seed('grower', 'ROLE_GROWER', clusterA);
    await seed('industrialA', 'ROLE_INDUSTRIAL', clusterA);
    const org = await seedOrganization(testDb.db, 'Ananas Export SA');
    aggregator = (
      await seedUser(testDb.db, 'ROLE_INDUSTRIAL', { clusterId: null, organizationId: org })
    ).id;
    otherAggregator = (await seedUser(testDb.db, 'ROLE_INDUSTRIAL', { clusterId: clusterB })).id;
  });
  afterAll(async () => app?.close());

  it('the cluster manager reads its cluster: name, no aggregator yet', async () => {
    const res = await call('managerA', 'GET', `/api/clusters/config/${users.managerA!.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      cluster: { id: clusterA, label: 'Cluster Allada' },
      industrial: null,
      cooperatives: [],
      growers: [],
    });
  });

  it('the aggregator select lists active aggregators with their organisation, searchable', async () => {
    const res = await call('managerA', 'GET', '/api/clusters/industrials?q=ananas');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      expect.objectContaining({
        id: aggregator,
        organization: expect.objectContaining({ denomination: 'Ananas Export SA' }),
      }),
    ]);
    const all = (await call('managerA', 'GET', '/api/clusters/industrials?limit=-1')).json();
    expect(all.count).toBe(3);
  });

  it('configures: rename, aggregator, read back; audited with who and what', async () => {
    const res = await call('managerA', 'POST', '/api/clusters/create-configs', {
      managerUserId: users.managerA!.id,
      clusterName: 'Cluster Allada Nord',
      industrialUserId: aggregator,
      growersId: [],
      cooperativeIds: [],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe('Mise à jour effectuée avec succès');
    const back = (
      await call('managerA', 'GET', `/api/clusters/config/${users.managerA!.id}`)
    ).json();
    expect(back.cluster.label).toBe('Cluster Allada Nord');
    expect(back.industrial).toMatchObject({ id: aggregator });
    expect(back.manager).toMatchObject({ id: users.managerA!.id });

    const audit = await call('superAdmin', 'GET', `/api/clusters/cluster/${clusterA}/audit`);
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.json().data[0]).toMatchObject({
      type: 'ClusterConfigured',
      actorId: users.managerA!.id,
      data: {
        labelFrom: 'Cluster Allada',
        labelTo: 'Cluster Allada Nord',
        industrialFrom: null,
        industrialTo: aggregator,
      },
    });
  });

  it('the SFD configures its own cluster through the same call', async () => {
    const res = await call('sfdA', 'POST', '/api/clusters/create-configs', {
      clusterName: 'Cluster Allada Nord',
      industrialUserId: aggregator,
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('aggregator required; unknown or not an aggregator → 400 with the field’s French message', async () => {
    const missing = await call('managerA', 'POST', '/api/clusters/create-configs', {
      clusterName: 'Cluster Allada Nord',
      industrialUserId: '',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ industrialUserId: 'Ce champ est obligatoire' });
    const notAggregator = await call('managerA', 'POST', '/api/clusters/create-configs', {
      clusterName: 'Cluster Allada Nord',
      industrialUserId: users.grower!.id,
    });
    expect(notAggregator.statusCode).toBe(400);
    expect(notAggregator.json()).toMatchObject({
      message: 'Agrégateur introuvable ou inactif',
      fields: { industrialUserId: 'Agrégateur introuvable ou inactif' },
    });
    const noName = await call('managerA', 'POST', '/api/clusters/create-configs', {
      clusterName: '  ',
      industrialUserId: aggregator,
    });
    expect(noName.json().fields).toEqual({ clusterName: 'Ce champ est obligatoire' });
  });

  it('another cluster’s name → 409; unknown cooperative or grower → 400', async () => {
    const taken = await call('managerA', 'POST', '/api/clusters/create-configs', {
      clusterName: 'Cluster Zè',
      industrialUserId: aggregator,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Un autre cluster porte déjà ce nom');
    const coop = await call('managerA', 'POST', '/api/clusters/create-configs', {
      clusterName: 'Cluster Allada Nord',
      industrialUserId: aggregator,
      cooperativeIds: [users.grower!.id],
    });
    expect(coop.statusCode).toBe(400);
    expect(coop.json().message).toBe('Coopérative introuvable');
    const grower = await call('managerA', 'POST', '/api/clusters/create-configs', {
      clusterName: 'Cluster Allada Nord',
      industrialUserId: aggregator,
      growersId: [users.grower!.id],
    });
    expect(grower.json().message).toBe('Producteur introuvable');
  });

  it('only the cluster manager (or SFD) configures, and only its own cluster', async () => {
    const body = { clusterName: 'Pris', industrialUserId: otherAggregator };
    for (const who of ['superAdmin', 'admin', 'grower', 'industrialA']) {
      const res = await call(who, 'POST', '/api/clusters/create-configs', body);
      expect(res.statusCode, who).toBe(403);
    }
    expect((await call(null, 'POST', '/api/clusters/create-configs', body)).statusCode).toBe(401);
    // The guard answers before the body is validated (no 400 to a caller without the role).
    expect((await call(null, 'POST', '/api/clusters/create-configs', {})).statusCode).toBe(401);
    expect((await call('grower', 'POST', '/api/clusters/create-configs', {})).statusCode).toBe(403);
    // Naming another manager: refused, nothing renamed.
    const other = await call('managerA', 'POST', '/api/clusters/create-configs', {
      ...body,
      managerUserId: users.managerB!.id,
    });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe('Vous ne pouvez configurer que votre propre cluster');
    const homeless = await call('homeless', 'POST', '/api/clusters/create-configs', body);
    expect(homeless.statusCode).toBe(403);
    expect(homeless.json()).toMatchObject({ reason: 'NO_CLUSTER' });
    const labels = await testDb.db
      .selectFrom('clusters')
      .select('label')
      .orderBy('label')
      .execute();
    expect(labels.map((l) => l.label)).toEqual(['Cluster Allada Nord', 'Cluster Zè']);
  });

  it('reads: own cluster only; administrators any; ownership probes on ids → 403/404', async () => {
    // Another manager's configuration, another cluster: refused.
    expect(
      (await call('managerB', 'GET', `/api/clusters/config/${users.managerA!.id}`)).statusCode,
    ).toBe(403);
    expect((await call('managerB', 'GET', `/api/clusters/cluster/${clusterA}`)).statusCode).toBe(
      403,
    );
    expect(
      (await call('managerB', 'GET', `/api/clusters/cluster/${clusterA}/audit`)).statusCode,
    ).toBe(403);
    expect((await call('industrialA', 'GET', `/api/clusters/cluster/${clusterB}`)).statusCode).toBe(
      403,
    );
    expect((await call('industrialA', 'GET', `/api/clusters/cluster/${clusterA}`)).statusCode).toBe(
      200,
    );
    // Administrators read any user's cluster and any cluster.
    const read = await call('superAdmin', 'GET', `/api/clusters/config/${users.managerA!.id}`);
    expect(read.json().cluster.label).toBe('Cluster Allada Nord');
    expect((await call('admin', 'GET', `/api/clusters/cluster/${clusterB}`)).statusCode).toBe(200);
    // Unknown ids → 404 (French); a manager without cluster → 403 NO_CLUSTER.
    const unknown = await call('superAdmin', 'GET', `/api/clusters/cluster/${users.grower!.id}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Cluster introuvable');
    const mine = await call('homeless', 'GET', `/api/clusters/config/${users.homeless!.id}`);
    expect(mine.statusCode).toBe(403);
    expect(mine.json()).toMatchObject({ reason: 'NO_CLUSTER' });
    // Roles the screen is not for.
    expect(
      (await call('grower', 'GET', `/api/clusters/config/${users.grower!.id}`)).statusCode,
    ).toBe(403);
    expect((await call('grower', 'GET', '/api/clusters/industrials')).statusCode).toBe(403);
  });
});
