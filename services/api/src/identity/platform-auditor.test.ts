import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import type { RoleCode } from '../http/auth.js';
import { buildTestApp } from '../test-app.js';
import { userStreamId } from './catalogue.js';
import { RULE_MESSAGES } from './field-rules.js';
import { roleIdOf } from './roles.js';
import { bearer, seedCluster, seedOrganization, seedUser } from './test-support.js';
import type { Database } from '../database.js';

/**
 * The platform's auditor (ROLE_ACCOUNTING outside any organisation) reads every wallet and
 * every audit trail: only the super admin makes one. An accountant anybody else makes belongs
 * to an organisation and reads that organisation's wallets only.
 */
describe('the platform auditor is granted by the super admin only', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let clusterId: string;
  let otherClusterId: string;
  let organizationId: string;
  /** An aggregator of another cluster and its wallet: what a minted auditor would read. */
  let farAggregator: { id: string; walletId: string };
  /** The aggregator of `organizationId`, in the manager's cluster. */
  let ownAggregator: { id: string; walletId: string };
  const headersOf: Partial<Record<RoleCode, Record<string, string>>> = {};
  let n = 0;

  const walletOf = async (id: string) =>
    (
      await testDb.db
        .selectFrom('users')
        .select('wallet_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).wallet_id as string;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    clusterId = await seedCluster(testDb.db, 'Cluster Zou');
    otherClusterId = await seedCluster(testDb.db, 'Cluster Atlantique');
    organizationId = await seedOrganization(testDb.db, 'Ananas du Zou SARL');
    const farOrganization = await seedOrganization(testDb.db, 'Atlantique Export SA');
    const far = await seedUser(testDb.db, 'ROLE_INDUSTRIAL', {
      clusterId: otherClusterId,
      organizationId: farOrganization,
    });
    farAggregator = { id: far.id, walletId: await walletOf(far.id) };
    const own = await seedUser(testDb.db, 'ROLE_INDUSTRIAL', { clusterId, organizationId });
    ownAggregator = { id: own.id, walletId: await walletOf(own.id) };
    for (const role of ['ROLE_SUPER_ADMIN', 'ROLE_ADMIN', 'ROLE_CLUSTER_MANAGER'] as const) {
      const user = await seedUser(testDb.db, role, {
        clusterId: role === 'ROLE_CLUSTER_MANAGER' ? clusterId : null,
      });
      headersOf[role] = bearer(app, user, role);
    }
  });
  afterAll(async () => app?.close());

  const createAccountant = (by: RoleCode, extra: Record<string, unknown> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/users/invitation/signup?typeUser=user',
      headers: headersOf[by],
      remoteAddress: `10.40.0.${++n}`,
      payload: {
        firstname: 'Comlan',
        lastname: 'Hounkpè',
        email: `comptable.${++n}.${Date.now()}@exemple.bj`,
        phone: `0197${String(100000 + n).slice(-6)}`,
        roleCode: 'ROLE_ACCOUNTING',
        ...extra,
      },
    });

  /** A token of the user's current version (a role change revokes the older ones). */
  async function signedIn(user: { id: string }) {
    const row = await testDb.db
      .selectFrom('users')
      .select('token_version')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const token = app.jwt.sign({ sub: user.id, role: 'ROLE_ACCOUNTING', tv: row.token_version });
    return { authorization: `Bearer ${token}` };
  }

  /** What the account reads of the far aggregator (another cluster) and of the platform. */
  async function reach(accountant: { id: string }) {
    const headers = await signedIn(accountant);
    const get = (url: string) => app.inject({ method: 'GET', url, headers });
    const accounts = await get('/api/wallet/accounts?limit=100');
    return {
      farBalance: (
        await get(`/api/wallet/${farAggregator.walletId}/balance?at=2026-01-01T00:00:00Z`)
      ).statusCode,
      farStatement: (
        await get(`/api/wallet/${farAggregator.walletId}/statement?from=2026-01-01&to=2026-01-31`)
      ).statusCode,
      farUserAudit: (await get(`/api/users/${farAggregator.id}/audit`)).statusCode,
      farClusterAudit: (await get(`/api/clusters/cluster/${otherClusterId}/audit`)).statusCode,
      integrity: (await get('/api/audit/integrity')).statusCode,
      accountsListFar: (accounts.json().data as { userId: string }[]).some(
        (row) => row.userId === farAggregator.id,
      ),
    };
  }

  it('a cluster manager or an admin adding a Comptable without an organisation gets 403, and no account is made', async () => {
    for (const by of ['ROLE_CLUSTER_MANAGER', 'ROLE_ADMIN'] as const) {
      const before = await testDb.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const response = await createAccountant(by);
      expect(response.statusCode, by).toBe(403);
      expect(response.json().message).toBe(RULE_MESSAGES.platformAuditor);
      const after = await testDb.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    }
  });

  it('a cluster manager’s Comptable of an organisation reads that organisation’s wallets, not another cluster’s wallets or audit trails', async () => {
    const response = await createAccountant('ROLE_CLUSTER_MANAGER', { organizationId });
    expect(response.statusCode, response.body).toBe(201);
    const accountant = response.json() as { id: string; organizationId: string };
    expect(accountant.organizationId).toBe(organizationId);
    expect(await reach(accountant)).toEqual({
      farBalance: 403,
      farStatement: 403,
      farUserAudit: 403,
      farClusterAudit: 403,
      integrity: 403,
      accountsListFar: false,
    });
    const headers = await signedIn(accountant);
    const own = await app.inject({
      method: 'GET',
      url: `/api/wallet/${ownAggregator.walletId}/balance?at=2026-01-01T00:00:00Z`,
      headers,
    });
    expect(own.statusCode).toBe(200);
    const listed = await app.inject({ method: 'GET', url: '/api/wallet/accounts', headers });
    expect((listed.json().data as { userId: string }[]).map((r) => r.userId).sort()).toEqual(
      [ownAggregator.id, accountant.id].sort(),
    );
  });

  it('the super admin makes the platform auditor, which reads every cluster’s wallets and trails', async () => {
    const response = await createAccountant('ROLE_SUPER_ADMIN');
    expect(response.statusCode, response.body).toBe(201);
    const auditor = response.json() as { id: string; organizationId: string | null };
    expect(auditor.organizationId).toBeNull();
    expect(await reach(auditor)).toEqual({
      farBalance: 200,
      farStatement: 200,
      farUserAudit: 200,
      farClusterAudit: 200,
      integrity: 200,
      accountsListFar: true,
    });
  });

  it('by a role change or by leaving its organisation: 403 but for the super admin, nothing written', async () => {
    const patch = (by: RoleCode, id: string, payload: Record<string, unknown>) =>
      app.inject({
        method: 'PATCH',
        url: `/api/users/${id}`,
        headers: headersOf[by],
        payload,
      });
    const events = async (id: string) =>
      (
        await testDb.db
          .selectFrom('events')
          .select('type')
          .where('stream_id', '=', userStreamId(id))
          .execute()
      ).length;
    const accounting = roleIdOf('ROLE_ACCOUNTING');
    for (const by of ['ROLE_CLUSTER_MANAGER', 'ROLE_ADMIN'] as const) {
      // A grower of the manager's cluster, made a Comptable without an organisation.
      const grower = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId });
      const promoted = await patch(by, grower.id, { roleId: accounting });
      expect(promoted.statusCode, by).toBe(403);
      expect(promoted.json().message).toBe(RULE_MESSAGES.platformAuditor);
      // Clearing the organisation in the same request as the role: the same refusal.
      const secretary = await seedUser(testDb.db, 'ROLE_SECRETARY', { clusterId, organizationId });
      const both = await patch(by, secretary.id, { roleId: accounting, organizationId: '' });
      expect(both.statusCode, by).toBe(403);
      // An organisation's accountant taken out of its organisation.
      const accountant = await seedUser(testDb.db, 'ROLE_ACCOUNTING', {
        clusterId,
        organizationId,
      });
      const out = await patch(by, accountant.id, { organizationId: null });
      expect(out.statusCode, by).toBe(403);
      expect(out.json().message).toBe(RULE_MESSAGES.platformAuditor);
      for (const id of [grower.id, secretary.id, accountant.id]) expect(await events(id)).toBe(0);
      const rows = await Promise.all(
        [grower.id, secretary.id, accountant.id].map((id) =>
          testDb.db
            .selectFrom('users')
            .select(['role_id', 'organization_id'])
            .where('id', '=', id)
            .executeTakeFirstOrThrow(),
        ),
      );
      expect(rows.map((r) => [r.role_id, r.organization_id])).toEqual([
        [roleIdOf('ROLE_GROWER'), null],
        [roleIdOf('ROLE_SECRETARY'), organizationId],
        [accounting, organizationId],
      ]);
      // With an organisation, the cluster manager and the admin still name an accountant.
      const named = await patch(by, grower.id, { roleId: accounting, organizationId });
      expect(named.statusCode, named.body).toBe(200);
    }
    const grower = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId });
    const bySuperAdmin = await patch('ROLE_SUPER_ADMIN', grower.id, { roleId: accounting });
    expect(bySuperAdmin.statusCode, bySuperAdmin.body).toBe(200);
    expect(await reach(grower)).toMatchObject({ farBalance: 200, integrity: 200 });
  });
});
