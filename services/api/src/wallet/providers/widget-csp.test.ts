import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../../test-app.js';
import { walletUser, withKey } from '../http/commands/test-support.js';
import type { Database } from '../../database.js';

/**
 * The real payment widgets: the checkout script is a setting the API hands the web with the
 * supply, and the Content-Security-Policy lets the browser load that script's origin only.
 */
describe('payment widget: configured script, in the supply answer and the CSP', () => {
  const testDb = useTestDatabase<Database>();
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  const start = async (env: Record<string, string>) => {
    const app = await buildTestApp(testDb.db, { env });
    apps.push(app);
    return app;
  };
  const kkiapay = {
    PAYMENT_PROVIDER: 'kkiapay',
    PAYOUT_PROVIDER: 'sandbox',
    KKIAPAY_PUBLIC_KEY: 'pk-test',
    KKIAPAY_PRIVATE_KEY: 'private',
    KKIAPAY_SECRET_KEY: 'secret',
  };
  const fedapay = {
    PAYMENT_PROVIDER: 'fedapay',
    FEDAPAY_PUBLIC_KEY: 'pk_sandbox_test',
    FEDAPAY_SECRET_KEY: 'sk_sandbox_test',
    FEDAPAY_BASE_URL: 'https://sandbox-api.fedapay.com',
  };
  const csp = async (app: FastifyInstance) => {
    const res = await app.inject({ url: '/api/health' });
    const header = String(res.headers['content-security-policy']);
    const directive = (name: string) =>
      header
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .find((d) => d[0] === name)
        ?.slice(1);
    return { scriptSrc: directive('script-src'), frameSrc: directive('frame-src') };
  };
  const supply = async (app: FastifyInstance, phone?: string) => {
    const user = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    const res = await app.inject({
      method: 'POST',
      url: '/api/supply',
      headers: withKey(user),
      payload: {
        amount: 2_500,
        walletId: user.walletId,
        accountType: 'MOBILE_MONEY',
        ...(phone ? { phone } : {}),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { reference: string; widget: Record<string, unknown> };
  };

  /** What the web reads before the payer submits: the provider and its script. */
  const provider = async (app: FastifyInstance) => {
    const user = await walletUser(app, testDb.db, 'ROLE_ADMIN');
    const res = await app.inject({ url: '/api/supply/payment-provider', headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('sandbox: scripts and frames of this site only; the widget is our page', async () => {
    const app = await start({});
    expect(await csp(app)).toEqual({ scriptSrc: ["'self'"], frameSrc: ["'self'"] });
    expect((await supply(app)).widget).not.toHaveProperty('script');
    expect(await provider(app)).toEqual({ provider: 'sandbox', script: null });
  });

  it('KKiaPay: the configured k.js in the supply answer and the CSP, with the payer’s number', async () => {
    const app = await start({
      ...kkiapay,
      KKIAPAY_WIDGET_SCRIPT_URL: 'http://127.0.0.1:4199/kkiapay/k.js',
    });
    expect(await csp(app)).toEqual({
      scriptSrc: ["'self'", 'http://127.0.0.1:4199'],
      frameSrc: ["'self'", 'https://widget-v3.kkiapay.me'],
    });
    const created = await supply(app, '97000001');
    expect(created.widget).toMatchObject({
      provider: 'kkiapay',
      amount: 2_500,
      key: 'pk-test',
      data: created.reference,
      partnerId: created.reference,
      phone: '2290197000001',
      script: 'http://127.0.0.1:4199/kkiapay/k.js',
    });
    expect(await provider(app)).toEqual({
      provider: 'kkiapay',
      script: 'http://127.0.0.1:4199/kkiapay/k.js',
    });
  });

  it('KKiaPay by default: its CDN script only, never FedaPay’s', async () => {
    const { scriptSrc } = await csp(await start(kkiapay));
    expect(scriptSrc).toEqual(["'self'", 'https://cdn.kkiapay.me']);
  });

  it('FedaPay: Checkout.js from the setting, the reference in custom_metadata, the frame origins set', async () => {
    const app = await start({
      ...fedapay,
      FEDAPAY_CHECKOUT_SCRIPT_URL: 'https://checkout.example/checkout.js?v=9',
      PAYMENT_WIDGET_FRAME_ORIGINS: 'https://frames.example',
    });
    expect(await csp(app)).toEqual({
      scriptSrc: ["'self'", 'https://checkout.example'],
      frameSrc: ["'self'", 'https://frames.example'],
    });
    const created = await supply(app, '+229 01 96 00 00 03');
    expect(created.widget).toMatchObject({
      provider: 'fedapay',
      publicKey: 'pk_sandbox_test',
      environment: 'sandbox',
      transaction: {
        amount: 2_500,
        description: `Approvisionnement ${created.reference}`,
        custom_metadata: { reference: created.reference },
      },
      customer: { phone_number: { number: '+2290196000003', country: 'bj' } },
      script: 'https://checkout.example/checkout.js?v=9',
    });
    expect(await provider(app)).toEqual({
      provider: 'fedapay',
      script: 'https://checkout.example/checkout.js?v=9',
    });
  });
});
