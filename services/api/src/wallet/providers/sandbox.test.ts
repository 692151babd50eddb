import { describe, expect, it } from 'vitest';
import { notFoundPage, widgetPage } from '../sandbox/widget-page.js';
import { parseConfig } from '@filiere/platform';
import { createPaymentProvider } from './create-provider.js';
import { createSandboxProvider, InMemorySandboxStore, recordSandboxPayment } from './sandbox.js';

describe('sandbox provider', () => {
  it('its widget is our page /api/sandbox/pay/{reference}', () => {
    const provider = createSandboxProvider({
      store: new InMemorySandboxStore(),
      publicUrl: 'http://localhost:3000/',
    });
    expect(provider.widgetConfig({ reference: 'REF 1', amount: 100 })).toMatchObject({
      provider: 'sandbox',
      url: 'http://localhost:3000/api/sandbox/pay/REF%201',
      amount: 100,
    });
  });

  it('verify reads the payer’s choice recorded by the widget page; an unknown id is FAILED', async () => {
    const store = new InMemorySandboxStore();
    const provider = createSandboxProvider({ store, publicUrl: 'http://x' });
    const paid = await recordSandboxPayment(store, {
      reference: 'R1',
      amount: 500,
      outcome: 'SUCCESS',
    });
    const refused = await recordSandboxPayment(store, {
      reference: 'R2',
      amount: 500,
      outcome: 'FAILED',
    });
    expect(await provider.verify(paid.transactionId)).toEqual({
      status: 'SUCCESS',
      amount: 500,
      reference: 'R1',
      transactionId: paid.transactionId,
    });
    expect((await provider.verify(refused.transactionId)).status).toBe('FAILED');
    expect((await provider.verify('sbx_unknown')).status).toBe('FAILED');
  });

  it('payouts succeed, except to a destination ending in 0000', async () => {
    const provider = createSandboxProvider({
      store: new InMemorySandboxStore(),
      publicUrl: 'http://x',
    });
    expect(
      await provider.payout({
        reference: 'W',
        amount: 1,
        method: 'MOBILE_MONEY',
        destination: '+2290197123456',
      }),
    ).toMatchObject({
      status: 'SUCCESS',
    });
    expect(
      await provider.payout({
        reference: 'W',
        amount: 1,
        method: 'BANK',
        destination: 'BJ0660100000',
      }),
    ).toMatchObject({
      status: 'FAILED',
      reason: 'Destination refusée par le bac à sable',
    });
  });
});

describe('createPaymentProvider', () => {
  const deps = { sandboxStore: new InMemorySandboxStore() };
  it('defaults to the sandbox and picks the configured adapter', () => {
    expect(createPaymentProvider(parseConfig({}), deps).name).toBe('sandbox');
    const kk = parseConfig({
      PAYMENT_PROVIDER: 'kkiapay',
      PAYOUT_PROVIDER: 'sandbox',
      KKIAPAY_PUBLIC_KEY: 'a',
      KKIAPAY_PRIVATE_KEY: 'b',
      KKIAPAY_SECRET_KEY: 'c',
    });
    expect(createPaymentProvider(kk, deps).name).toBe('kkiapay');
    const fp = parseConfig({
      PAYMENT_PROVIDER: 'fedapay',
      FEDAPAY_PUBLIC_KEY: 'a',
      FEDAPAY_SECRET_KEY: 'b',
    });
    expect(createPaymentProvider(fp, deps).name).toBe('fedapay');
  });

  it('routes KKiaPay payouts to PAYOUT_PROVIDER and refuses a hand-made config without one', async () => {
    const kk = parseConfig({
      PAYMENT_PROVIDER: 'kkiapay',
      PAYOUT_PROVIDER: 'sandbox',
      KKIAPAY_PUBLIC_KEY: 'a',
      KKIAPAY_PRIVATE_KEY: 'b',
      KKIAPAY_SECRET_KEY: 'c',
    });
    const provider = createPaymentProvider(kk, deps);
    expect(provider.widgetConfig({ reference: 'R', amount: 1 })).toMatchObject({
      provider: 'kkiapay',
    });
    const request = {
      reference: 'W',
      amount: 1,
      method: 'MOBILE_MONEY',
      destination: '+2290196000001',
    } as const;
    expect(await provider.payout(request)).toMatchObject({ status: 'SUCCESS' });
    expect(await provider.checkPayout('sbx_payout_1', request)).toEqual({
      status: 'SUCCESS',
      providerId: 'sbx_payout_1',
    });
    expect(() => createPaymentProvider({ ...kk, PAYOUT_PROVIDER: undefined }, deps)).toThrow(
      /PAYOUT_PROVIDER is required when PAYMENT_PROVIDER=kkiapay/,
    );
  });
});

describe('sandbox widget page (the page /api/sandbox/pay/{reference} serves)', () => {
  it('shows the amount and reference, escaped, with Payer and Refuser while the supply is open', () => {
    const html = widgetPage({
      reference: 'R<1>',
      amount: 1234568,
      status: 'INIT',
      returnTo: '/approvisionnements"><script>',
    });
    expect(html).toContain('lang="fr"');
    expect(html).not.toContain('R<1>');
    expect(html).not.toContain('"><script>');
    expect(html).toMatch(/1\s234\s568\sF\sCFA/u);
    expect(html).toContain('value="SUCCESS"');
    expect(html).toContain('value="FAILED"');
    expect(html).toContain('action="/api/sandbox/pay/R%3C1%3E"');
  });
  it('offers no choice once the supply is settled, and a French page for an unknown reference', () => {
    const settled = widgetPage({ reference: 'R', amount: 1, status: 'SUCCESS', returnTo: '/' });
    expect(settled).not.toContain('value="SUCCESS"');
    expect(settled).toContain('déjà traité');
    expect(notFoundPage()).toContain('Paiement introuvable');
  });
});
