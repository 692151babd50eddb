import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, narrowDb, parseConfig } from '@filiere/platform';
import { catalogueDecoder, catchUp, checkProjector } from '@filiere/projections';
import { buildApp } from '../../../app.js';
import type { Database } from '../../../database.js';
import { findDemoUser } from '../../../identity/index.js';
import { bearer, seedUser } from '../../../identity/test-support.js';
import type { RoleCode } from '../../../kernel/roles.js';
import { product } from '../../../modules.js';
import { useDemoDatabase } from '../../../test-demo-database.js';
import { evolveWallet, initialWalletState, type WalletEvent } from '../../../wallet/index.js';
import { DEMO_SEASON_LABEL } from '../../demo/seasons.js';
import { seasonsProjector } from '../../read-model/projector.js';
import { inputProvidersProjector } from '../read-model/projector.js';

interface Who {
  id: string;
  headers: Record<string, string>;
}

/**
 * The input providers' routes on a real PostgreSQL, over the demo (season 2026–2027: 100 t
 * at 50 t/ha → 2 ha; NPK 350 F × 400 kg/ha → 800 kg, urea 300 F × 250 → 500 kg, potassium
 * sulphate 450 F × 150 → 300 kg; the demo assigned 400 kg NPK and 300 kg urea).
 */
describe('season input providers API (real PostgreSQL)', () => {
  // The demo up to the input providers, built once per run and copied.
  const testDb = useDemoDatabase('season-inputs');
  const db = () => narrowDb<Database>()(testDb.db);
  let app: FastifyInstance;
  let admin: Who;
  let aggregator: Who;
  let second: Who;
  let supplier: Who;
  let plast: Who;
  let tori: Who;
  let seasonId: number;
  let linkId: number;
  let secondLinkId: number;

  const who = async (email: string, role: RoleCode): Promise<Who> => {
    const { id } = await findDemoUser(testDb.db, email);
    return { id, headers: bearer(app, { id }, role) };
  };
  const call = (
    user: Who,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      headers: { ...user.headers, ...headers },
      ...(payload ? { payload } : {}),
    });
  const project = async () => {
    for (const projector of [seasonsProjector, inputProvidersProjector]) {
      await catchUp(testDb.db, projector, {
        decode: catalogueDecoder(product.catalogue),
        publish: async () => undefined,
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
  const maxOf = async (user: Who, industrialId: string, inputId: number) =>
    call(
      user,
      'GET',
      `/api/user-cluster-input-provider/input-quantite?industrialId=${industrialId}&clusterId=${seasonId}&inputId=${inputId}`,
    );

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
    aggregator = await who('agregateur@demo.filiere.bj', 'ROLE_INDUSTRIAL');
    second = await who('agregateur.zou@demo.filiere.bj', 'ROLE_INDUSTRIAL');
    supplier = await who('fournisseur@demo.filiere.bj', 'ROLE_INPUT_PROVIDER');
    plast = await who('agri.plast@demo.filiere.bj', 'ROLE_INPUT_PROVIDER');
    tori = await who('agro.rejets.tori@demo.filiere.bj', 'ROLE_INPUT_PROVIDER');
    const links = await db()
      .selectFrom('season_links')
      .innerJoin('seasons', 'seasons.id', 'season_links.season_id')
      .select(['season_links.id', 'season_links.user_id', 'seasons.id as season_id'])
      .where('seasons.label', '=', DEMO_SEASON_LABEL)
      .execute();
    seasonId = links[0]!.season_id;
    linkId = links.find((l) => l.user_id === aggregator.id)!.id;
    secondLinkId = links.find((l) => l.user_id === second.id)!.id;
    await project();
  }, 240_000);
  afterAll(async () => app?.close());

  it('the demo link lists its two providers with names, fertilizers, amounts (Accepté rows)', async () => {
    const res = await call(
      aggregator,
      'GET',
      `/api/user-cluster-input-provider/${linkId}/input-providers`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.count).toBe(2);
    const byFertilizer = Object.fromEntries(
      body.data.map((r: { fertilizer: { id: number } }) => [r.fertilizer.id, r]),
    );
    expect(byFertilizer[1]).toMatchObject({
      quantity: 400,
      unitAmount: 350,
      amount: 140_000,
      remainingAmount: 140_000,
      status: 'ACTIVE',
      provider: { userId: supplier.id },
      fertilizer: { label: expect.stringContaining('NPK'), type: { id: 1 } },
    });
    expect(byFertilizer[1].supplierId).toEqual(expect.any(String));
    expect(byFertilizer[2]).toMatchObject({ quantity: 300, amount: 90_000 });
    // search
    const searched = await call(
      aggregator,
      'GET',
      `/api/user-cluster-input-provider/${linkId}/input-providers?q=ur%C3%A9e`,
    );
    expect(searched.json().count).toBe(1);
  });

  it('input-quantite: ceil(H × d_i) minus what is assigned (NPK 400, urea 200, sulphate 300)', async () => {
    for (const [id, max] of [
      [1, 400],
      [2, 200],
      [3, 300],
    ] as const) {
      const res = await maxOf(aggregator, aggregator.id, id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ maxQuantity: max });
    }
    expect((await maxOf(second, aggregator.id, 1)).statusCode).toBe(403);
    expect((await maxOf(admin, aggregator.id, 1)).json()).toEqual({ maxQuantity: 400 });
  });

  it('above the maximum: 422 with the spec text; nothing written', async () => {
    const before = await walletOf(aggregator.id);
    const res = await call(aggregator, 'POST', '/api/user-cluster-input-provider', {
      userClusterId: linkId,
      inputProviderId: plast.id,
      fertilizerId: 3,
      quantity: 301,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      message: "La quantité d'intrant doit être inférieur ou égale à 300",
      maxQuantity: 300,
    });
    expect((await walletOf(aggregator.id)).held).toBe(before.held);
  });

  it('400 on bad input with French field messages; 403 for other roles; 422 on a link not confirmed', async () => {
    const bad = await call(aggregator, 'POST', '/api/user-cluster-input-provider', {
      userClusterId: linkId,
      inputProviderId: 'nope',
      quantity: 0,
    });
    expect(bad.statusCode).toBe(400);
    for (const user of [admin, supplier]) {
      const res = await call(user, 'POST', '/api/user-cluster-input-provider', {
        userClusterId: linkId,
        inputProviderId: plast.id,
        fertilizerId: 3,
        quantity: 10,
      });
      expect(res.statusCode).toBe(403);
    }
    const pending = await call(second, 'POST', '/api/user-cluster-input-provider', {
      userClusterId: secondLinkId,
      inputProviderId: plast.id,
      fertilizerId: 3,
      quantity: 10,
    });
    expect(pending.statusCode).toBe(422);
    expect(pending.json().message).toBe(
      'Veuillez accepter la saison avant afin d’ajouter un fournisseur d’intrant',
    );
    const notMine = await call(second, 'POST', '/api/user-cluster-input-provider', {
      userClusterId: linkId,
      inputProviderId: plast.id,
      fertilizerId: 3,
      quantity: 10,
    });
    expect(notMine.statusCode).toBe(403);
  });

  it('short wallet: 422 with the missing amount and the funding prompt (a confirmed industrial with an empty wallet)', async () => {
    const { id } = await seedUser(testDb.db, 'ROLE_INDUSTRIAL');
    const fresh: Who = { id, headers: bearer(app, { id }, 'ROLE_INDUSTRIAL') };
    const attached = await call(admin, 'POST', `/api/clusters/${seasonId}/industrial`, {
      industrialId: id,
      quantity: 10_000,
    });
    expect(attached.statusCode, attached.body).toBeLessThan(300);
    expect((await call(fresh, 'POST', `/api/seasons/${seasonId}/accept`, {})).statusCode).toBe(200);
    const freshLink = attached.json().linkId as number;
    // 10 t → 0.2 ha; sulphate 150 kg/ha → 30 kg × 450 = 13 500 F
    const res = await call(fresh, 'POST', '/api/user-cluster-input-provider', {
      userClusterId: freshLink,
      inputProviderId: plast.id,
      fertilizerId: 3,
      quantity: 30,
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ missingAmount: 13_500, reason: 'INSUFFICIENT_BALANCE' });
    expect(res.json().message).toContain('Il manque 13 500 FCFA');
    expect(res.json().message).toContain('approvisionnez votre wallet');
  });

  it('concurrent assignments on one line never pass its maximum (300 kg: two of 200 → one)', async () => {
    const body = (provider: Who) => ({
      userClusterId: linkId,
      inputProviderId: provider.id,
      fertilizerId: 3,
      quantity: 200,
    });
    const answers = await Promise.all([
      call(aggregator, 'POST', '/api/user-cluster-input-provider', body(supplier)),
      call(aggregator, 'POST', '/api/user-cluster-input-provider', body(plast)),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 422]);
    expect(answers.find((a) => a.statusCode === 422)!.json().message).toBe(
      "La quantité d'intrant doit être inférieur ou égale à 100",
    );
    expect((await maxOf(aggregator, aggregator.id, 3)).json()).toEqual({ maxQuantity: 100 });
  });

  it('an Idempotency-Key repeat answers the first assignment and holds once', async () => {
    const headers = { 'idempotency-key': 'assign-once-1' };
    const body = {
      userClusterId: linkId,
      inputProviderId: tori.id,
      fertilizerId: 1,
      quantity: 100,
    };
    const first = await call(aggregator, 'POST', '/api/user-cluster-input-provider', body, headers);
    const again = await call(aggregator, 'POST', '/api/user-cluster-input-provider', body, headers);
    expect(first.statusCode, first.body).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(first.json()).toMatchObject({ amount: 35_000, computedQte: 300 });
    const wallet = await walletOf(aggregator.id);
    expect(wallet.holds.get(first.json().holdId)).toMatchObject({
      amount: 35_000,
      status: 'ACTIVE',
    });
  });

  it('reach: another industrial 403, a provider only its own rows, staff all; smarts FOURNITURE_INTRANT', async () => {
    await project();
    const url = `/api/user-cluster-input-provider/${linkId}/input-providers`;
    expect((await call(second, 'GET', url)).statusCode).toBe(403);
    const own = (await call(supplier, 'GET', url)).json();
    expect(
      own.data.every((r: { provider: { userId: string } }) => r.provider.userId === supplier.id),
    ).toBe(true);
    const all = (await call(admin, 'GET', url)).json();
    expect(all.count).toBeGreaterThan(own.count);

    const smarts = await call(
      aggregator,
      'GET',
      `/api/contracts/smarts/${aggregator.id}/FOURNITURE_INTRANT`,
    );
    expect(smarts.statusCode, smarts.body).toBe(200);
    expect(smarts.json().count).toBe(all.count);
    expect(smarts.json().data[0]).toMatchObject({
      reference: expect.stringMatching(/^FI-\d{6}$/),
      rightSide: { firstname: expect.any(String) },
      meta: { quantity: expect.any(String), amount: expect.any(Number) },
    });
    expect(
      (await call(second, 'GET', `/api/contracts/smarts/${aggregator.id}/FOURNITURE_INTRANT`))
        .statusCode,
    ).toBe(403);
    const providerSmarts = await call(
      supplier,
      'GET',
      `/api/contracts/smarts/${supplier.id}/FOURNITURE_INTRANT`,
    );
    expect(
      providerSmarts
        .json()
        .data.every((r: { rightSide: { id: string } }) => r.rightSide.id === aggregator.id),
    ).toBe(true);
    // The contracts' own LIVRAISON route still answers its type.
    expect(
      (await call(aggregator, 'GET', `/api/contracts/smarts/${aggregator.id}/LIVRAISON`))
        .statusCode,
    ).toBe(200);
  });

  it('contracts/input-supply/{id}: the detail for staff, its industrial and its provider only', async () => {
    await project();
    const row = await db()
      .selectFrom('season_input_providers')
      .select(['id', 'provider_user_id', 'quantity_kg', 'amount'])
      .where('industrial_user_id', '=', aggregator.id)
      .where('provider_user_id', '=', supplier.id)
      .executeTakeFirstOrThrow();
    const url = `/api/contracts/input-supply/${row.id}`;
    const own = await call(aggregator, 'GET', url);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({
      id: String(row.id),
      reference: `FI-${String(row.id).padStart(6, '0')}`,
      status: 'ACTIVE',
      season: { label: DEMO_SEASON_LABEL, fromDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
      industrial: { userId: aggregator.id },
      provider: { userId: supplier.id },
      fertilizer: { label: expect.any(String), type: expect.any(String) },
      quantity: Number(row.quantity_kg),
      amount: Number(row.amount),
      remainingAmount: Number(row.amount),
    });
    expect((await call(supplier, 'GET', url)).statusCode).toBe(200);
    expect((await call(admin, 'GET', url)).statusCode).toBe(200);
    const other = await call(second, 'GET', url);
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe('Ce contrat de fourniture ne vous appartient pas');
    expect((await call(plast, 'GET', url)).statusCode).toBe(403);
    const unknown = await call(admin, 'GET', '/api/contracts/input-supply/999999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Contrat de fourniture introuvable');
    expect((await call(admin, 'GET', '/api/contracts/input-supply/abc')).statusCode).toBe(400);
  });

  it('the ban releases the hold, frees the line, and twice is a 409', async () => {
    const list = (
      await call(aggregator, 'GET', `/api/user-cluster-input-provider/${linkId}/input-providers`)
    ).json();
    const urea = list.data.find((r: { fertilizer: { id: number } }) => r.fertilizer.id === 2);
    const before = await walletOf(aggregator.id);
    expect(
      (await call(second, 'DELETE', `/api/user-cluster-input-provider/${urea.id}`)).statusCode,
    ).toBe(403);
    const res = await call(aggregator, 'DELETE', `/api/user-cluster-input-provider/${urea.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'BANNED', released: 90_000 });
    expect(res.json().message).toMatch(/ est bani de la saison avec succès$/);
    const after = await walletOf(aggregator.id);
    expect(after.availableBalance).toBe(before.availableBalance + 90_000);
    expect(
      (await call(aggregator, 'DELETE', `/api/user-cluster-input-provider/${urea.id}`)).statusCode,
    ).toBe(409);
    expect((await maxOf(aggregator, aggregator.id, 2)).json()).toEqual({ maxQuantity: 500 });
    await project();
    const listed = (
      await call(aggregator, 'GET', `/api/user-cluster-input-provider/${linkId}/input-providers`)
    ).json();
    expect(listed.data.some((r: { id: number }) => r.id === urea.id)).toBe(false);
  });

  it('the read model replays to the same rows', async () => {
    await project();
    await checkProjector(testDb.db, inputProvidersProjector, {
      decode: catalogueDecoder(product.catalogue),
    });
    const rows = await sql<{
      n: number;
    }>`select count(*)::int as n from season_input_providers`.execute(testDb.db);
    expect(rows.rows[0]!.n).toBeGreaterThan(0);
  });
});
