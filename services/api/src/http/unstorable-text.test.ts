import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSTORABLE_TEXT_MESSAGE } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { seedCluster } from '../identity/test-support.js';
import { buildTestApp } from '../test-app.js';
import {
  countEvents,
  fund,
  walletState,
  walletUser,
  withKey,
  type TestUser,
} from '../wallet/http/commands/test-support.js';
import type { Database } from '../database.js';

/**
 * Text PostgreSQL cannot store (NUL, a lone UTF-16 surrogate) is refused at validation with
 * a 400 and a French field message, on every route (validator.ts checks every string of the
 * body, query, params and headers). Past validation, a transfer reason holding "\u0000"
 * would fail its whole group-commit batch: every transfer sent with it would get 400.
 */
describe('text PostgreSQL cannot store, sent to the API', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let payers: TestUser[];
  let grower: TestUser;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    const cluster = await seedCluster(testDb.db, 'Cluster texte');
    const superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    grower = await walletUser(app, testDb.db, 'ROLE_GROWER', { clusterId: cluster });
    payers = [];
    for (let i = 0; i < 61; i++) {
      const payer = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { clusterId: cluster });
      await fund(app, payer, superAdmin, 10_000);
      payers.push(payer);
    }
  }, 120_000);
  afterAll(async () => {
    await app.close();
  });

  const transfer = (from: TestUser, reason: string) =>
    app.inject({
      method: 'POST',
      url: '/api/wallet/make-transfer',
      headers: withKey(from),
      payload: { source: from.walletId, destination: grower.walletId, amount: 100, reason },
    });

  it('60 concurrent transfers succeed; the one with a NUL in its reason alone gets 400', async () => {
    const before = await countEvents(testDb.db, 'TransferSent');
    const bad = payers[60]!;
    const answers = await Promise.all([
      ...payers.slice(0, 30).map((p, i) => transfer(p, `Paiement ${i}`)),
      transfer(bad, 'Paiement\u0000 intrants'),
      ...payers.slice(30, 60).map((p, i) => transfer(p, `Paiement ${30 + i}`)),
    ]);
    const badAnswer = answers.splice(30, 1)[0]!;
    expect(answers.map((a) => a.statusCode)).toEqual(Array(60).fill(201));
    expect(badAnswer.statusCode).toBe(400);
    expect(badAnswer.json()).toMatchObject({
      message: UNSTORABLE_TEXT_MESSAGE,
      fields: { reason: UNSTORABLE_TEXT_MESSAGE },
    });
    expect((await walletState(app, bad.walletId)).balance).toBe(10_000);
    expect((await walletState(app, grower.walletId)).balance).toBe(60 * 100);
    expect((await countEvents(testDb.db, 'TransferSent')) - before).toBe(60);
  });

  it('refuses lone surrogates too, and keeps an emoji', async () => {
    for (const reason of ['\uD800', 'fin \uDFFF', 'a\uDC00\uD800b']) {
      const res = await transfer(payers[0]!, reason);
      expect(res.statusCode, JSON.stringify(reason)).toBe(400);
      expect(res.json().fields).toEqual({ reason: UNSTORABLE_TEXT_MESSAGE });
    }
    expect((await transfer(payers[0]!, 'Récolte 🌾')).statusCode).toBe(201);
  });

  it('checks every string of every part of every route, even fields no schema names', async () => {
    const headers = payers[0]!.headers;
    const cases: InjectOptions[] = [
      // A field of the schema, a key unknown to it, a nested value.
      { method: 'POST', url: '/api/auth/login', payload: { email: 'a\u0000@b.bj', password: 'x' } },
      { method: 'POST', url: '/api/auth/login', payload: { 'x\u0000': 1, email: 'a@b.bj' } },
      { method: 'POST', url: '/api/auth/login', payload: { extra: [{ deep: '\uD800' }] } },
      // Query string and path parameters.
      { method: 'GET', url: '/api/wallet/recipients?q=%00', headers },
      { method: 'GET', url: '/api/users/industrials?q=a%00b', headers },
      { method: 'GET', url: '/api/supply/verify/abc%00def', headers },
      { method: 'GET', url: '/api/sandbox/pay/ref%00?returnTo=%2F' },
    ];
    for (const c of cases) {
      const res = await app.inject(c);
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(400);
      expect(Object.values(res.json().fields as Record<string, string>)).toContain(
        UNSTORABLE_TEXT_MESSAGE,
      );
    }
  });
});
