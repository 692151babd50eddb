import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, narrowDb, parseConfig } from '@filiere/platform';
import { catalogueDecoder, catchUp, checkProjector, type PushMessage } from '@filiere/projections';
import { buildApp } from '../../../app.js';
import type { Database } from '../../../database.js';
import { findDemoUser } from '../../../identity/index.js';
import { bearer } from '../../../identity/test-support.js';
import type { RoleCode } from '../../../kernel/roles.js';
import { product } from '../../../modules.js';
import { evolveWallet, initialWalletState, type WalletEvent } from '../../../wallet/index.js';
import { DEMO_SEASON_LABEL } from '../../demo/seasons.js';
import { seasonRequestsProjector } from '../read-model/projector.js';
import { useDemoDatabase } from '../../../test-demo-database.js';

interface Who {
  id: string;
  headers: Record<string, string>;
}

/**
 * Growers' requests on a real PostgreSQL over the demo up to the input providers (season
 * 2026–2027; agregateur@demo CONFIRMED with providers for NPK (1) and urea (2), none for
 * potassium sulphate (3)).
 */
describe('season requests API (real PostgreSQL)', () => {
  // The demo up to the input providers, built once per run and copied (inputs and deliveries
  // tests start from the same demo).
  const testDb = useDemoDatabase('season-inputs');
  const db = () => narrowDb<Database>()(testDb.db);
  let app: FastifyInstance;
  let admin: Who;
  let staffAdmin: Who;
  let aggregator: Who;
  let second: Who;
  let sfd: Who;
  let coop: Who;
  let otherCoop: Who;
  let growerUser: Who;
  let growerId: string;
  let coopGrowerId: string;
  let otherGrowerId: string;
  let seasonId: number;
  const pushes: PushMessage[] = [];

  const who = async (email: string, role: RoleCode): Promise<Who> => {
    const { id } = await findDemoUser(testDb.db, email);
    return { id, headers: bearer(app, { id }, role) };
  };
  const as = (id: string, role: RoleCode): Who => ({ id, headers: bearer(app, { id }, role) });
  const call = (
    user: Who,
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      headers: { ...user.headers, ...headers },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const decode = () => catalogueDecoder(product.catalogue);
  /** Every projector (seasons, wallets, debts…), ours last; pushes kept. */
  const project = async () => {
    for (const projector of product.projectors) {
      await catchUp(testDb.db, projector, {
        decode: decode(),
        publish: async (messages) => void pushes.push(...messages),
      });
    }
  };
  const walletOf = async (userId: string) => {
    const { wallet_id } = await db()
      .selectFrom('users')
      .select('wallet_id')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return (await app.eventStore.readStream(`wallet-${wallet_id}`))
      .map((e) => ({ type: e.type, data: e.data }) as unknown as WalletEvent)
      .reduce(evolveWallet, initialWalletState());
  };
  const file = (user: Who, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(user, 'POST', '/api/season-requests', { seasonId, ...body }, headers);
  const fileOk = async (user: Who, body: Record<string, unknown>) => {
    const res = await file(user, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { requestId: number; reference: string; amount: number };
  };
  const countEvents = async (type: string, streamId: string) =>
    (await app.eventStore.readStream(streamId)).filter((e) => e.type === type).length;

  beforeAll(async () => {
    const logger = createLogger('silent', false);
    const database = testDb.db as Kysely<Database>;
    app = await buildApp({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      db: database,
      logger,
    });
    await app.ready();
    await project();
    admin = await who('superadmin@demo.filiere.bj', 'ROLE_SUPER_ADMIN');
    staffAdmin = await who('admin@demo.filiere.bj', 'ROLE_ADMIN');
    aggregator = await who('agregateur@demo.filiere.bj', 'ROLE_INDUSTRIAL');
    second = await who('agregateur.zou@demo.filiere.bj', 'ROLE_INDUSTRIAL');
    sfd = await who('sfd@demo.filiere.bj', 'ROLE_SFD');
    const season = await db()
      .selectFrom('seasons')
      .select('id')
      .where('label', '=', DEMO_SEASON_LABEL)
      .executeTakeFirstOrThrow();
    seasonId = season.id;
    const { cluster_id: clusterId } = await db()
      .selectFrom('users')
      .select('cluster_id')
      .where('id', '=', aggregator.id)
      .executeTakeFirstOrThrow();
    // Growers of the aggregator's cluster in a cooperative, and one of another cooperative.
    const growers = await db()
      .selectFrom('growers as g')
      .innerJoin('cooperatives as c', 'c.organization_id', 'g.cooperative_id')
      .select(['g.id', 'g.user_id', 'g.cluster_id', 'c.user_id as coop_user'])
      .where('g.deactivated_at', 'is', null)
      .orderBy('g.reference')
      .execute();
    const mine = growers.filter((g) => g.cluster_id === clusterId);
    const grower = mine[0]!;
    growerId = grower.id;
    growerUser = as(grower.user_id, 'ROLE_GROWER');
    coop = as(grower.coop_user, 'ROLE_FARMER_ORGANIZATION');
    coopGrowerId = mine.find((g) => g.coop_user === grower.coop_user && g.id !== grower.id)!.id;
    const other = growers.find((g) => g.coop_user !== grower.coop_user)!;
    otherGrowerId = other.id;
    otherCoop = as(other.coop_user, 'ROLE_FARMER_ORGANIZATION');
  }, 300_000);
  afterAll(async () => app?.close());

  it('a grower files an INPUT request: amount = kg × aᵢ, to its cluster’s industrial, pushed to it', async () => {
    const res = await file(growerUser, {
      type: 'INPUT',
      growerId,
      fertilizerId: 1,
      quantity: 40,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      type: 'INPUT',
      status: 'CREATED',
      amount: 14_000,
      quantityKg: 40,
      industrialUserId: aggregator.id,
      reference: expect.stringMatching(/^DEM-\d{6}$/),
    });
    await project();
    expect(pushes).toContainEqual(
      expect.objectContaining({ type: 'seasons.request', userIds: [aggregator.id] }),
    );
  });

  it('filing reach: the cooperative for its growers only; nobody for another grower; staff not at all', async () => {
    const body = { type: 'PINEAPLE', amount: 50_000, quantity: 1_000 };
    expect((await file(coop, { ...body, growerId: coopGrowerId })).statusCode).toBe(201);
    const foreign = await file(coop, { ...body, growerId: otherGrowerId });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe(
      'Vous ne pouvez faire une demande que pour vous-même ou les producteurs de votre coopérative',
    );
    expect((await file(otherCoop, { ...body, growerId })).statusCode).toBe(403);
    expect((await file(growerUser, { ...body, growerId: coopGrowerId })).statusCode).toBe(403);
    expect((await file(aggregator, { ...body, growerId })).statusCode).toBe(403);
    // The guard answers before the body is validated: 401 anonymous, 403 a wrong role.
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/season-requests',
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
    const staffBad = await call(staffAdmin, 'POST', '/api/season-requests', { type: 'LOAN' });
    expect(staffBad.statusCode).toBe(403);
    const decideBad = await call(growerUser, 'POST', '/api/user-cluster-grower/accept-requests', {
      ids: [],
    });
    expect(decideBad.statusCode).toBe(403);
  });

  it('bad input is a 400 with French field messages', async () => {
    const outside = await file(growerUser, {
      type: 'INPUT',
      growerId,
      fertilizerId: 999,
      quantity: 5,
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().fields).toEqual({
      fertilizerId: 'Cet intrant ne fait pas partie de cette saison',
    });
    const missing = await file(growerUser, { type: 'PINEAPLE', growerId, quantity: 10 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ amount: 'Ce champ est obligatoire' });
    const notSfd = await file(growerUser, {
      type: 'SOCIAL',
      growerId,
      amount: 1_000,
      sfdUserId: aggregator.id,
    });
    expect(notSfd.statusCode).toBe(400);
    const badType = await file(growerUser, { type: 'LOAN', growerId, amount: 1 });
    expect(badType.statusCode).toBe(400);
  });

  it('lists: {count, values} by type and status with search; reach by role', async () => {
    await project();
    const url = (userId: string, query = '') =>
      `/api/user-cluster-grower/get-industrial-requests/INPUT/${userId}?status=CREATED${query}`;
    const own = await call(aggregator, 'GET', url(aggregator.id));
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().count).toBeGreaterThanOrEqual(1);
    const row = own.json().values[0];
    expect(row).toMatchObject({
      type: 'INPUT',
      status: 'CREATED',
      quantity: 40,
      amount: 14_000,
      fertilizer: { id: 1, label: expect.stringContaining('NPK') },
      grower: { id: growerId, user: { id: growerUser.id } },
    });
    const searched = await call(aggregator, 'GET', url(aggregator.id, `&q=${row.reference}`));
    expect(searched.json().count).toBe(1);
    expect((await call(aggregator, 'GET', url(aggregator.id, '&q=zzzzzz'))).json().count).toBe(0);
    // Another industrial: its own list is empty; the aggregator's is refused.
    expect((await call(second, 'GET', url(second.id))).json().count).toBe(0);
    expect((await call(second, 'GET', url(aggregator.id))).statusCode).toBe(403);
    // The grower its own; the cooperative its growers'; the super admin all with its own id.
    expect((await call(growerUser, 'GET', url(growerUser.id))).json().count).toBe(1);
    const pineapple = `/api/user-cluster-grower/get-industrial-requests/PINEAPLE/${coop.id}`;
    expect((await call(coop, 'GET', pineapple)).json().count).toBe(1);
    expect(
      (await call(otherCoop, 'GET', pineapple.replace(coop.id, otherCoop.id))).json().count,
    ).toBe(0);
    expect((await call(admin, 'GET', url(admin.id))).json().count).toBeGreaterThanOrEqual(1);
    expect((await call(admin, 'GET', url(aggregator.id))).json().count).toBeGreaterThanOrEqual(1);
    // Pending = CREATED.
    const pending = await call(
      aggregator,
      'GET',
      `/api/user-cluster-grower/get-pending-requests/INPUT/${aggregator.id}`,
    );
    expect(pending.json().count).toBe(own.json().count);
    // Roles without requests: the route's guard.
    expect((await call(staffAdmin, 'GET', url(staffAdmin.id))).statusCode).toBe(403);
  });

  it('bulk accept: each id its answer — two INPUT get codes, one without a provider is a 422', async () => {
    const a = await fileOk(growerUser, { type: 'INPUT', growerId, fertilizerId: 1, quantity: 10 });
    const b = await fileOk(coop, {
      type: 'INPUT',
      growerId: coopGrowerId,
      fertilizerId: 2,
      quantity: 20,
    });
    const c = await fileOk(growerUser, { type: 'INPUT', growerId, fertilizerId: 3, quantity: 5 });
    const res = await call(aggregator, 'POST', '/api/user-cluster-grower/accept-requests', {
      ids: [a.requestId, b.requestId, c.requestId],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      message: 'Demande (s) acceptée(s) avec succès',
      done: 2,
      failed: 1,
    });
    expect(body.results[0]).toMatchObject({
      id: a.requestId,
      ok: true,
      request: { status: 'CONFIRMED', code: expect.stringMatching(/^AGW_\d{6}$/) },
    });
    expect(body.results[1].request.code).not.toBe(body.results[0].request.code);
    expect(body.results[2]).toEqual({
      id: c.requestId,
      ok: false,
      statusCode: 422,
      message: 'Aucun fournisseur d’intrant n’est affecté pour cet engrais',
    });
    await project();
    const rows = await db()
      .selectFrom('season_requests')
      .select(['id', 'status', 'code', 'delivery_status', 'decided_by'])
      .where('id', 'in', [a.requestId, c.requestId])
      .orderBy('id')
      .execute();
    expect(rows[0]).toMatchObject({
      status: 'CONFIRMED',
      delivery_status: 'CREATED',
      decided_by: aggregator.id,
      code: body.results[0].request.code,
    });
    expect(rows[1]).toMatchObject({ status: 'CREATED', code: null });
    expect(pushes).toContainEqual(
      expect.objectContaining({
        type: 'seasons.requestUpdated',
        userIds: [growerUser.id, aggregator.id],
      }),
    );
    // Accepted is irreversible: accepting or rejecting it again is refused per id.
    const again = await call(aggregator, 'POST', '/api/user-cluster-grower/reject-requests', [
      { id: a.requestId, reason: 'erreur' },
    ]);
    expect(again.json().results[0]).toMatchObject({
      ok: false,
      statusCode: 409,
      message: 'Cette demande a déjà été acceptée',
    });
    expect(again.json().message).toBe('Cette demande a déjà été acceptée');
  });

  it('reject: a reason is required (400); rejected with it; only its industrial may', async () => {
    const r = await fileOk(growerUser, { type: 'INPUT', growerId, fertilizerId: 2, quantity: 3 });
    const empty = await call(aggregator, 'POST', '/api/user-cluster-grower/reject-requests', [
      { id: r.requestId, reason: '  ' },
    ]);
    expect(empty.statusCode).toBe(400);
    const notMine = await call(second, 'POST', '/api/user-cluster-grower/reject-requests', [
      { id: r.requestId, reason: 'non' },
    ]);
    expect(notMine.json().results[0]).toMatchObject({ ok: false, statusCode: 403 });
    const ok = await call(aggregator, 'POST', '/api/user-cluster-grower/reject-requests', [
      { id: r.requestId, reason: 'Stock épuisé' },
    ]);
    expect(ok.json()).toMatchObject({ message: 'Demande (s) rejetée(s) avec succès', done: 1 });
    await project();
    const row = await db()
      .selectFrom('season_requests')
      .select(['status', 'reason'])
      .where('id', '=', r.requestId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'REJECTED', reason: 'Stock épuisé' });
    const list = await call(
      aggregator,
      'GET',
      `/api/user-cluster-grower/get-industrial-requests/INPUT/${aggregator.id}?status=REJECTED`,
    );
    expect(list.json().values[0]).toMatchObject({ id: r.requestId, reason: 'Stock épuisé' });
    // Unknown id: a 404 for that id only.
    const unknown = await call(aggregator, 'POST', '/api/user-cluster-grower/accept-requests', {
      ids: [999_999],
    });
    expect(unknown.json().results[0]).toMatchObject({ ok: false, statusCode: 404 });
  });

  it('PINEAPLE: accepting pays the grower and opens its AVANCE_SUR_ANANAS debt in one append; short → 422 with the missing amount', async () => {
    const r = await fileOk(growerUser, {
      type: 'PINEAPLE',
      growerId,
      amount: 75_000,
      quantity: 1_500,
    });
    const payerBefore = await walletOf(aggregator.id);
    const growerBefore = await walletOf(growerUser.id);
    const res = await call(aggregator, 'POST', '/api/user-cluster-grower/accept-requests', {
      ids: [r.requestId],
    });
    expect(res.json().results[0], res.body).toMatchObject({ ok: true });
    expect((await walletOf(aggregator.id)).balance).toBe(payerBefore.balance - 75_000);
    expect((await walletOf(growerUser.id)).balance).toBe(growerBefore.balance + 75_000);
    const debt = await app.eventStore.readStream(`debt-request-${r.requestId}`);
    expect(debt.map((e) => e.type)).toEqual(['DebtOpened']);
    expect(debt[0]!.data).toMatchObject({
      kind: 'AVANCE_SUR_ANANAS',
      creditorUserId: aggregator.id,
      debtorGrowerId: growerId,
      principal: 75_000,
    });

    const available = (await walletOf(aggregator.id)).availableBalance;
    const big = await fileOk(growerUser, {
      type: 'PINEAPLE',
      growerId,
      amount: available + 1_234,
      quantity: 10,
    });
    const short = await call(aggregator, 'POST', '/api/user-cluster-grower/accept-requests', {
      ids: [big.requestId],
    });
    expect(short.json().results[0]).toMatchObject({
      ok: false,
      statusCode: 422,
      missingAmount: 1_234,
      message: expect.stringContaining('il manque 1 234 FCFA'),
    });
    expect((await walletOf(aggregator.id)).availableBalance).toBe(available);
  });

  it('concurrent accepts of the same request pay once; a repeated Idempotency-Key answers the first result', async () => {
    const r = await fileOk(growerUser, {
      type: 'PINEAPLE',
      growerId,
      amount: 9_000,
      quantity: 100,
    });
    const before = await walletOf(growerUser.id);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(aggregator, 'POST', '/api/user-cluster-grower/accept-requests', {
          ids: [r.requestId],
        }),
      ),
    );
    const results = answers.map((a) => a.json().results[0]);
    expect(results.filter((x) => x.ok)).toHaveLength(1);
    expect(results.filter((x) => !x.ok).every((x) => x.statusCode === 409)).toBe(true);
    expect((await walletOf(growerUser.id)).balance).toBe(before.balance + 9_000);
    expect(await countEvents('DebtOpened', `debt-request-${r.requestId}`)).toBe(1);

    const k = await fileOk(growerUser, { type: 'PINEAPLE', growerId, amount: 1_000, quantity: 10 });
    const key = { 'idempotency-key': randomUUID() };
    const first = await call(
      aggregator,
      'POST',
      '/api/user-cluster-grower/accept-requests',
      { ids: [k.requestId] },
      key,
    );
    const repeat = await call(
      aggregator,
      'POST',
      '/api/user-cluster-grower/accept-requests',
      { ids: [k.requestId] },
      key,
    );
    expect(repeat.json()).toEqual(first.json());
    expect(repeat.json().results[0].ok).toBe(true);
    expect(await countEvents('DebtOpened', `debt-request-${k.requestId}`)).toBe(1);
  });

  it('SOCIAL: asked of the SFD, listed for it, paid by it (FINANCEMENT_SOCIAL); the industrial cannot accept it', async () => {
    // The SFD gets money from the administrator (admins may pay anyone).
    const supply = await call(
      staffAdmin,
      'POST',
      '/api/supply',
      {
        amount: 500_000,
        walletId: (
          await db()
            .selectFrom('users')
            .select('wallet_id')
            .where('id', '=', staffAdmin.id)
            .executeTakeFirstOrThrow()
        ).wallet_id,
        accountType: 'BANK',
        bank: 'BAB',
      },
      { 'idempotency-key': randomUUID() },
    );
    expect(supply.statusCode, supply.body).toBe(201);
    const validated = await call(
      admin,
      'POST',
      '/api/supply/validate-bank-supply',
      { reference: supply.json().reference },
      { 'idempotency-key': randomUUID() },
    );
    expect(validated.statusCode, validated.body).toBe(200);
    const wallets = await db()
      .selectFrom('users')
      .select(['id', 'wallet_id'])
      .where('id', 'in', [staffAdmin.id, sfd.id])
      .execute();
    const walletIdOf = (id: string) => wallets.find((w) => w.id === id)!.wallet_id;
    const paid = await call(
      staffAdmin,
      'POST',
      '/api/wallet/make-transfer',
      {
        source: walletIdOf(staffAdmin.id),
        destination: walletIdOf(sfd.id),
        amount: 300_000,
        reason: 'Dotation SFD',
      },
      { 'idempotency-key': randomUUID() },
    );
    expect(paid.statusCode, paid.body).toBeLessThan(300);

    const r = await fileOk(growerUser, {
      type: 'SOCIAL',
      growerId,
      amount: 60_000,
      sfdUserId: sfd.id,
    });
    await project();
    const list = await call(sfd, 'GET', '/api/season-requests/social?status=CREATED');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().values.map((v: { id: number }) => v.id)).toContain(r.requestId);
    expect((await call(aggregator, 'GET', '/api/season-requests/social')).statusCode).toBe(403);
    const byIndustrial = await call(
      aggregator,
      'POST',
      '/api/user-cluster-grower/accept-requests',
      {
        ids: [r.requestId],
      },
    );
    expect(byIndustrial.json().results[0]).toMatchObject({ ok: false, statusCode: 403 });
    const growerBefore = await walletOf(growerUser.id);
    const accepted = await call(sfd, 'POST', '/api/user-cluster-grower/accept-requests', {
      ids: [r.requestId],
    });
    expect(accepted.json().results[0], accepted.body).toMatchObject({ ok: true });
    expect((await walletOf(growerUser.id)).balance).toBe(growerBefore.balance + 60_000);
    const debt = await app.eventStore.readStream(`debt-request-${r.requestId}`);
    expect(debt[0]!.data).toMatchObject({ kind: 'FINANCEMENT_SOCIAL', creditorUserId: sfd.id });
  });

  it('the filing form’s options: the cooperative’s growers, active seasons with their lines, the SFDs', async () => {
    const res = await call(coop, 'GET', '/api/season-requests/filing-options');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.growers.map((g: { id: string }) => g.id)).toContain(coopGrowerId);
    expect(body.growers.map((g: { id: string }) => g.id)).not.toContain(otherGrowerId);
    expect(body.seasons[0].fertilizers[0]).toMatchObject({
      fertilizerId: 1,
      unitAmount: 350,
      label: expect.stringContaining('NPK'),
    });
    expect(body.sfds.map((s: { userId: string }) => s.userId)).toContain(sfd.id);
    const mine = await call(growerUser, 'GET', '/api/season-requests/filing-options');
    expect(mine.json().growers.map((g: { id: string }) => g.id)).toEqual([growerId]);
  });

  it('a replay of the log rebuilds the same rows', async () => {
    await project();
    const check = await checkProjector(testDb.db, seasonRequestsProjector, { decode: decode() });
    expect(check.differences).toEqual([]);
  });
});
