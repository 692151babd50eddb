import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, parseConfig, type Config } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildApp } from '../../app.js';
import { createPaymentProvider } from '../providers/create-provider.js';
import type { SandboxStore } from '../providers/sandbox.js';
import { supplyState, walletUser, withKey } from '../http/commands/test-support.js';
import type { Database } from '../../database.js';

/**
 * parseConfig refuses the sandbox in production (platform/src/config.test.ts). These cases
 * build the configuration by hand, past parseConfig, to show the app itself holds: the public
 * widget that credits a supply without payment is not served, and a sandbox payer (whose
 * payouts "succeed" without paying) is refused.
 */
const handBuilt = (env: Record<string, string>): Config => ({
  ...parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }),
  NODE_ENV: 'production',
});

describe('the sandbox provider under NODE_ENV=production', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;

  beforeAll(async () => {
    // Payments in by the sandbox, payouts by FedaPay (never called: a closed loopback port).
    const config = handBuilt({
      PAYMENT_PROVIDER: 'sandbox',
      PAYOUT_PROVIDER: 'fedapay',
      FEDAPAY_BASE_URL: 'http://127.0.0.1:9',
      FEDAPAY_PUBLIC_KEY: 'pk_test',
      FEDAPAY_SECRET_KEY: 'sk_test',
    });
    app = await buildApp({ config, db: testDb.db, logger: createLogger('silent', false) });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves no sandbox widget: GET and POST /api/sandbox/pay/{reference} are 404 and credit nothing', async () => {
    const aggregator = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    const created = await app.inject({
      method: 'POST',
      url: '/api/supply',
      headers: withKey(aggregator),
      payload: { amount: 25_000, walletId: aggregator.walletId, accountType: 'MOBILE_MONEY' },
    });
    expect(created.statusCode).toBe(201);
    const { reference } = created.json();

    const page = await app.inject({ method: 'GET', url: `/api/sandbox/pay/${reference}` });
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('Payer');
    const paid = await app.inject({
      method: 'POST',
      url: `/api/sandbox/pay/${reference}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=SUCCESS',
    });
    expect(paid.statusCode).toBe(404);
    expect((await supplyState(app, reference)).status).toBe('INIT');
  });

  it('refuses to build a sandbox payer', () => {
    const store = {} as SandboxStore;
    expect(() => createPaymentProvider(handBuilt({}), { sandboxStore: store })).toThrow(
      'PAYOUT_PROVIDER must not be sandbox when NODE_ENV=production',
    );
    expect(() =>
      createPaymentProvider(
        handBuilt({
          PAYMENT_PROVIDER: 'fedapay',
          PAYOUT_PROVIDER: 'sandbox',
          FEDAPAY_PUBLIC_KEY: 'pk_test',
          FEDAPAY_SECRET_KEY: 'sk_test',
        }),
        { sandboxStore: store },
      ),
    ).toThrow(/PAYOUT_PROVIDER must not be sandbox/);
  });
});
