import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, narrowDb, parseConfig } from '@filiere/platform';
import { catalogueDecoder, catchUp, checkProjector } from '@filiere/projections';
import { buildApp } from '../../../app.js';
import type { Database } from '../../../database.js';
import { findDemoUser } from '../../../identity/index.js';
import { bearer } from '../../../identity/test-support.js';
import type { RoleCode } from '../../../kernel/roles.js';
import { product } from '../../../modules.js';
import { useDemoDatabase } from '../../../test-demo-database.js';
import { evolveWallet, initialWalletState, type WalletEvent } from '../../../wallet/index.js';
import { DEMO_SEASON_LABEL } from '../../demo/seasons.js';
import { inputProvidersProjector } from '../../inputs/read-model/projector.js';
import { seasonsProjector } from '../../read-model/projector.js';
import { requestEvent, requestReference, requestStreamId } from '../../requests/index.js';
import { advanceReference } from '../../../kernel/references.js';
import { seasonRequestsProjector } from '../../requests/read-model/projector.js';

interface Who {
  id: string;
  headers: Record<string, string>;
}

/**
 * Deliveries by grower code on a real PostgreSQL, over the demo (the aggregator's link with
 * Intrants du Sud on NPK, 400 kg held at 350 F) and INPUT requests filed and accepted on
 * their streams: find by code, reach, exactly-once under concurrent confirmations, the
 * provider paid from the hold, the grower's debt, the lists.
 */
describe('deliveries by grower code API (real PostgreSQL)', () => {
  // The demo up to the input providers, built once per run and copied.
  const testDb = useDemoDatabase('season-inputs');
  const db = () => narrowDb<Database>()(testDb.db);
  let app: FastifyInstance;
  let aggregator: Who;
  let second: Who;
  let supplier: Who;
  let plast: Who;
  let admin: Who;
  let seasonId: number;
  let linkId: number;
  let grower: { id: string; userId: string };
  /** Other growers, for the guess limits per grower. */
  let others: { id: string; userId: string }[];
  let nextRequest = 900_000;

  const who = async (email: string, role: RoleCode): Promise<Who> => {
    const { id } = await findDemoUser(testDb.db, email);
    return { id, headers: bearer(app, { id }, role) };
  };
  const call = (
    user: Who,
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string> = {},
    payload?: unknown,
  ) =>
    app.inject({
      method,
      url,
      headers: { ...user.headers, ...headers },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  /** POST make-delivery with the grower's code (on `on`, the shared app by default). */
  const confirm = (
    user: Who,
    requestId: number,
    code: string | undefined,
    headers: Record<string, string> = {},
    on: FastifyInstance = app,
  ) =>
    on.inject({
      method: 'POST',
      url: `/api/input-provider/make-delivery/${requestId}`,
      headers: { ...user.headers, ...headers },
      payload: code === undefined ? {} : { code },
    });
  const findCode = (user: Who, code: string, on: FastifyInstance = app) =>
    on.inject({
      method: 'GET',
      url: `/api/input-provider/find-by-code/${code}`,
      headers: user.headers,
    });
  /** An app of its own: fresh guess counters. */
  const freshApp = async () => {
    const fresh = await buildApp({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      db: testDb.db as Kysely<Database>,
      logger: createLogger('silent', false),
    });
    await fresh.ready();
    return fresh;
  };
  const decode = catalogueDecoder(product.catalogue);
  const project = async () => {
    for (const projector of [seasonsProjector, inputProvidersProjector, seasonRequestsProjector]) {
      await catchUp(testDb.db, projector, { decode, publish: async () => undefined });
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
  const countEvents = async (type: string, requestId: number) =>
    (await db().selectFrom('events').select('stream_id').where('type', '=', type).execute()).filter(
      (e) =>
        type === 'InputDelivered'
          ? e.stream_id === requestStreamId(requestId)
          : e.stream_id === `debt-input-advance-${requestId}`,
    ).length;

  /** An INPUT request of `kg` NPK filed and accepted with `code` (the requests area's events). */
  async function acceptedRequest(
    code: string,
    kg: number,
    fertilizerId = 1,
    of: { id: string; userId: string } = grower,
  ): Promise<number> {
    const requestId = ++nextRequest;
    const streamId = requestStreamId(requestId);
    const unit = fertilizerId === 1 ? 350 : 300;
    await app.commands.handle({
      streams: [streamId],
      metadata: { userId: aggregator.id },
      decide: () => ({
        result: null,
        writes: [
          {
            streamId,
            events: [
              requestEvent('GrowerRequestFiled', {
                requestId,
                reference: requestReference(requestId),
                type: 'INPUT',
                seasonId,
                linkId,
                industrialUserId: aggregator.id,
                sfdUserId: null,
                growerId: of.id,
                growerUserId: of.userId,
                fertilizerId,
                quantityKg: kg,
                amount: kg * unit,
                filedBy: of.userId,
                filedAt: new Date().toISOString(),
              }),
              requestEvent('GrowerRequestAccepted', {
                requestId,
                acceptedBy: aggregator.id,
                acceptedAt: new Date().toISOString(),
                code,
                debtId: null,
                transferId: null,
              }),
            ],
          },
        ],
      }),
    });
    await project();
    return requestId;
  }

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
    const link = await db()
      .selectFrom('season_links')
      .innerJoin('seasons', 'seasons.id', 'season_links.season_id')
      .select(['season_links.id', 'seasons.id as season_id'])
      .where('seasons.label', '=', DEMO_SEASON_LABEL)
      .where('season_links.user_id', '=', aggregator.id)
      .executeTakeFirstOrThrow();
    seasonId = link.season_id;
    linkId = link.id;
    const rows = await db()
      .selectFrom('growers')
      .select(['id', 'user_id'])
      .where('deactivated_at', 'is', null)
      .orderBy('id')
      .limit(4)
      .execute();
    const found = rows.map((row) => ({ id: row.id, userId: row.user_id }));
    expect(found).toHaveLength(4);
    grower = found[0]!;
    others = found.slice(1);
  }, 240_000);
  afterAll(async () => app?.close());

  it('find-by-code: the request for its provider and industrial; a wrong, malformed or foreign code is the same 404', async () => {
    const requestId = await acceptedRequest('AGW_100001', 20);
    const res = await call(supplier, 'GET', '/api/input-provider/find-by-code/AGW_100001');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      isOk: true,
      request: {
        id: requestId,
        reference: requestReference(requestId),
        quantity: 20,
        amount: 7_000,
        status: 'CREATED',
        fertilizer: { id: 1, type: { label: expect.any(String) } },
        grower: { id: grower.userId, firstname: expect.any(String) },
        aggregator: { id: aggregator.id },
      },
    });
    expect(
      (await call(aggregator, 'GET', '/api/input-provider/find-by-code/agw_100001')).statusCode,
    ).toBe(200);
    for (const [user, code] of [
      [supplier, 'AGW_999999'],
      [supplier, 'nimportequoi'],
      [plast, 'AGW_100001'],
      [second, 'AGW_100001'],
    ] as const) {
      const wrong = await call(user, 'GET', `/api/input-provider/find-by-code/${code}`);
      expect(wrong.statusCode).toBe(404);
      expect(wrong.json().message).toBe('Le code du producteur que vous avez saisi est incorrect');
    }
    expect(
      (await call(admin, 'GET', '/api/input-provider/find-by-code/AGW_100001')).statusCode,
    ).toBe(403);
  });

  it('twelve concurrent confirmations: one delivery, one payment, one debt; the others 409', async () => {
    const requestId = await acceptedRequest('AGW_100002', 40);
    const before = await walletOf(supplier.id);
    const industrialBefore = await walletOf(aggregator.id);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => confirm(supplier, requestId, 'AGW_100002')),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(11);
    const ok = answers.find((a) => a.statusCode === 200)!.json();
    expect(ok).toMatchObject({
      status: 'DONE',
      amount: 14_000,
      message: 'Producteur livré avec succès !',
    });
    expect(answers.find((a) => a.statusCode === 409)!.json().message).toBe(
      'Ces intrants ont déjà été livrés',
    );
    expect(await countEvents('InputDelivered', requestId)).toBe(1);
    expect(await countEvents('DebtOpened', requestId)).toBe(1);
    const after = await walletOf(supplier.id);
    expect(after.balance - before.balance).toBe(14_000);
    const industrial = await walletOf(aggregator.id);
    expect(industrialBefore.balance - industrial.balance).toBe(14_000);
    const hold = [...industrial.holds].find(([, h]) => h.amount === 140_000)!;
    expect(hold[1]).toMatchObject({ status: 'ACTIVE' });
    expect(industrial.availableBalance).toBe(industrialBefore.availableBalance);
    // the code is spent
    await project();
    expect(
      (await call(supplier, 'GET', '/api/input-provider/find-by-code/AGW_100002')).statusCode,
    ).toBe(409);
  });

  it('the same Idempotency-Key repeated answers the first delivery; the industrial may confirm too', async () => {
    const requestId = await acceptedRequest('AGW_100003', 10);
    const headers = { 'idempotency-key': 'deliver-once-1' };
    const first = await confirm(supplier, requestId, 'AGW_100003', headers);
    const again = await confirm(supplier, requestId, 'AGW_100003', headers);
    expect(first.statusCode, first.body).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await countEvents('InputDelivered', requestId)).toBe(1);

    const byIndustrial = await acceptedRequest('AGW_100004', 10);
    const res = await confirm(aggregator, byIndustrial, 'AGW_100004');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().providerUserId).toBe(supplier.id);
  });

  it('reach: a provider without that line 403, another industrial 403; a line without provider 422', async () => {
    const requestId = await acceptedRequest('AGW_100005', 5);
    expect((await confirm(plast, requestId, 'AGW_100005')).statusCode).toBe(403);
    expect((await confirm(second, requestId, 'AGW_100005')).statusCode).toBe(403);
    expect((await confirm(admin, requestId, 'AGW_100005')).statusCode).toBe(403);
    const sulphate = await acceptedRequest('AGW_100006', 5, 3);
    const res = await confirm(aggregator, sulphate, 'AGW_100006');
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('Aucun fournisseur actif');
    expect((await confirm(supplier, 123456789, 'AGW_100005')).statusCode).toBe(404);
  });

  it('the lists: the provider its lines, the industrial its own, search and pages of 10; DONE rows', async () => {
    await project();
    const provider = await call(
      supplier,
      'GET',
      `/api/input-provider/growers-request/${supplier.id}`,
    );
    expect(provider.statusCode, provider.body).toBe(200);
    const rows = provider.json().data as {
      status: string;
      fertilizer: { id: number };
      reference: string;
    }[];
    expect(rows.every((r) => r.fertilizer.id === 1)).toBe(true);
    expect(rows.filter((r) => r.status === 'DONE').length).toBe(3);
    const industrial = await call(
      aggregator,
      'GET',
      `/api/input-provider/growers-request/${aggregator.id}?limit=10`,
    );
    expect(industrial.json().count).toBe(6);
    const searched = await call(
      aggregator,
      'GET',
      `/api/input-provider/growers-request/${aggregator.id}?q=${rows[0]!.reference}`,
    );
    expect(searched.json().count).toBe(1);
    expect(
      (await call(plast, 'GET', `/api/input-provider/growers-request/${plast.id}`)).json().count,
    ).toBe(0);
    expect(
      (await call(second, 'GET', `/api/input-provider/growers-request/${aggregator.id}`))
        .statusCode,
    ).toBe(403);
    expect(
      (await call(admin, 'GET', `/api/input-provider/growers-request/${aggregator.id}`)).json()
        .count,
    ).toBe(6);
  });

  it('the providers table counts what each assignment delivered, and replays', async () => {
    await project();
    const list = await call(
      aggregator,
      'GET',
      `/api/user-cluster-input-provider/${linkId}/input-providers`,
    );
    const npk = list.json().data.find((r: { fertilizer: { id: number } }) => r.fertilizer.id === 1);
    expect(npk).toMatchObject({
      deliveredAmount: 14_000 + 3_500 + 3_500,
      remainingAmount: 140_000 - 21_000,
    });
    const check = await checkProjector(testDb.db, inputProvidersProjector, { decode });
    expect(check.differences).toEqual([]);
  });

  it('one reference per delivery: both wallets, the advances list and the grower’s page show the same AVI-…', async () => {
    for (const projector of product.projectors) {
      await catchUp(testDb.db, projector, { decode, publish: async () => undefined });
    }
    const debts = await db()
      .selectFrom('grower_debts')
      .select(['id', 'debtor_grower_id'])
      .where('id', 'like', 'input-advance-%')
      .execute();
    expect(debts.length).toBeGreaterThan(1);
    const references = (answer: { json: () => { data: { reference: string }[] } }) =>
      answer.json().data.map((r) => r.reference);
    const paid = references(await call(aggregator, 'GET', '/api/transaction?limit=1000'));
    const received = references(await call(supplier, 'GET', '/api/transaction?limit=1000'));
    const advances = references(
      await call(
        aggregator,
        'GET',
        `/api/contracts/smarts/${aggregator.id}/AVANCE_SUR_INTRANT?limit=100`,
      ),
    );
    for (const debt of debts) {
      const reference = advanceReference('AVANCE_SUR_INTRANT', debt.id);
      // One payment per delivery in each wallet, never the assignment's hold id.
      expect(paid.filter((r: string) => r === reference)).toHaveLength(1);
      expect(received.filter((r: string) => r === reference)).toHaveLength(1);
      expect(advances).toContain(reference);
      const page = await call(
        admin,
        'GET',
        `/api/grower/contracts/${debt.debtor_grower_id}?limit=100&q=${reference}`,
      );
      expect(references(page)).toEqual([reference]);
    }
    expect(paid.some((r: string) => r.startsWith('input-assignment-'))).toBe(false);
  });

  it('make-delivery takes the grower’s code: missing or wrong, nothing is paid or owed; the right one pays once', async () => {
    const requestId = await acceptedRequest('AGW_200001', 10);
    const provider0 = await walletOf(supplier.id);
    const industrial0 = await walletOf(aggregator.id);
    const missing = await confirm(supplier, requestId, undefined);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain(
      'Saisissez le code du producteur : il prouve que le producteur a reçu ses intrants',
    );
    const noBody = await call(supplier, 'POST', `/api/input-provider/make-delivery/${requestId}`);
    expect(noBody.statusCode).toBe(400);
    expect((await confirm(supplier, requestId, '   ')).statusCode).toBe(400);
    for (const [user, code] of [
      [supplier, 'AGW_200002'],
      [aggregator, 'AGW_999998'],
      [supplier, 'nimportequoi'],
    ] as const) {
      const wrong = await confirm(user, requestId, code);
      expect(wrong.statusCode, wrong.body).toBe(422);
      expect(wrong.json()).toMatchObject({
        message: 'Le code du producteur que vous avez saisi est incorrect',
        reason: 'INCORRECT_CODE',
      });
    }
    expect(await countEvents('InputDelivered', requestId)).toBe(0);
    expect(await countEvents('DebtOpened', requestId)).toBe(0);
    const provider1 = await walletOf(supplier.id);
    const industrial1 = await walletOf(aggregator.id);
    expect(provider1.balance).toBe(provider0.balance);
    expect(industrial1.balance).toBe(industrial0.balance);
    expect(industrial1.held).toBe(industrial0.held);
    expect(industrial1.availableBalance).toBe(industrial0.availableBalance);
    await project();
    const row = await db()
      .selectFrom('season_requests')
      .select(['delivery_status', 'provider_user_id'])
      .where('id', '=', requestId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ delivery_status: 'CREATED', provider_user_id: null });

    // The code as the grower reads it out: case and spaces do not matter.
    const ok = await confirm(supplier, requestId, ' agw_200001 ');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'DONE', amount: 3_500 });
    expect((await confirm(supplier, requestId, 'AGW_200001')).statusCode).toBe(409);
    expect(await countEvents('InputDelivered', requestId)).toBe(1);
    expect(await countEvents('DebtOpened', requestId)).toBe(1);
    expect((await walletOf(supplier.id)).balance - provider0.balance).toBe(3_500);
    expect(industrial0.balance - (await walletOf(aggregator.id)).balance).toBe(3_500);
  });

  it('guessing one grower’s codes: past 5 wrong codes (any caller) a French 429, even with the right code; nothing paid; other growers unaffected', async () => {
    const limited = await freshApp();
    try {
      const [target, bystander] = others as [typeof grower, typeof grower];
      const requestId = await acceptedRequest('AGW_300001', 5, 1, target);
      const sameGrower = await acceptedRequest('AGW_300002', 5, 1, target);
      const elsewhere = await acceptedRequest('AGW_300003', 5, 1, bystander);
      const wrongs = [
        [supplier, 'AGW_399991'],
        [supplier, 'AGW_399992'],
        [supplier, 'AGW_399993'],
        [aggregator, 'AGW_399994'],
        [aggregator, 'AGW_399995'],
      ] as const;
      for (const [user, code] of wrongs) {
        expect((await confirm(user, requestId, code, {}, limited)).statusCode).toBe(422);
      }
      for (const [user, id, code] of [
        [supplier, requestId, 'AGW_300001'],
        [aggregator, requestId, 'AGW_300001'],
        [supplier, sameGrower, 'AGW_300002'],
      ] as const) {
        const refused = await confirm(user, id, code, {}, limited);
        expect(refused.statusCode, refused.body).toBe(429);
        expect(refused.json().message).toMatch(
          /^Trop de codes incorrects pour ce producteur\. Réessayez dans \d+ minutes?\.$/,
        );
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(await countEvents('InputDelivered', requestId)).toBe(0);
      expect(await countEvents('DebtOpened', requestId)).toBe(0);
      expect(await countEvents('InputDelivered', sameGrower)).toBe(0);
      // Another grower's request: the same provider still delivers it.
      const other = await confirm(supplier, elsewhere, 'AGW_300003', {}, limited);
      expect(other.statusCode, other.body).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('guessing codes as one provider: past 10 wrong codes (find-by-code and make-delivery together) a French 429; other callers unaffected', async () => {
    const limited = await freshApp();
    try {
      const [a, b, c] = others as [typeof grower, typeof grower, typeof grower];
      const first = await acceptedRequest('AGW_400001', 5, 1, a);
      const second = await acceptedRequest('AGW_400002', 5, 1, b);
      const third = await acceptedRequest('AGW_400003', 5, 1, c);
      for (const code of ['AGW_499991', 'AGW_499992', 'AGW_499993', 'AGW_499994']) {
        expect((await findCode(supplier, code, limited)).statusCode).toBe(404);
      }
      for (const [id, code] of [
        [first, 'AGW_499995'],
        [first, 'AGW_499996'],
        [first, 'AGW_499997'],
        [second, 'AGW_499998'],
        [second, 'AGW_499999'],
        [second, 'AGW_499990'],
      ] as const) {
        expect((await confirm(supplier, id, code, {}, limited)).statusCode).toBe(422);
      }
      const tooMany = /^Trop de codes incorrects\. Réessayez dans \d+ minutes?\.$/;
      const blocked = await confirm(supplier, third, 'AGW_400003', {}, limited);
      expect(blocked.statusCode, blocked.body).toBe(429);
      expect(blocked.json().message).toMatch(tooMany);
      const lookup = await findCode(supplier, 'AGW_400003', limited);
      expect(lookup.statusCode).toBe(429);
      expect(lookup.json().message).toMatch(tooMany);
      expect(await countEvents('InputDelivered', third)).toBe(0);
      // The aggregator is another caller, and that grower was never guessed.
      const byIndustrial = await confirm(aggregator, third, 'AGW_400003', {}, limited);
      expect(byIndustrial.statusCode, byIndustrial.body).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
