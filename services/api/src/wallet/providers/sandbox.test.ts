import { describe, expect, it } from 'vitest';
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

describe('sandbox widget page', () => {
  it('shows the amount and reference, escaped, with a success and a failure button', () => {
    const html = renderSandboxPayPage({
      reference: 'R<1>',
      amount: 1234568,
      actionUrl: '/api/sandbox/pay/R%3C1%3E',
    });
    expect(html).toContain('lang="fr"');
    expect(html).toContain('R&#60;1&#62;');
    expect(html).not.toContain('R<1>');
    expect(html).toMatch(/1\s234\s568\sF\sCFA/u);
    expect(html).toContain('value="SUCCESS"');
    expect(html).toContain('value="FAILED"');
    const result = renderSandboxResultPage({
      reference: 'R',
      transactionId: 'sbx_1',
      status: 'SUCCESS',
    });
    expect(result).toContain('"transactionId":"sbx_1"');
    expect(result).toContain('Paiement effectué');
  });
});

/**
 * The first sandbox page, which no route serves any more (the widget route renders
 * sandbox/widget-page.ts); moved here from providers/sandbox-page.ts with its test.
 *
 * The sandbox "widget": a page of ours served at `/api/sandbox/pay/{reference}` where the
 * payer chooses success or failure. The form posts `outcome` (SUCCESS or FAILED) back to
 * the same path; the route records the choice with `recordSandboxPayment` and answers the
 * result page, which hands `{reference, transactionId, status}` to the opener window (the
 * web app then calls the verify endpoint with the transaction id).
 */
const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const formatAmount = (amount: number): string =>
  new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'XOF' }).format(amount);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1b1e}
h1{font-size:1.4rem}.amount{font-size:2rem;font-weight:700;margin:1rem 0}
form{display:flex;gap:.75rem;flex-wrap:wrap}
button{font-size:1rem;padding:.7rem 1.2rem;border:0;border-radius:.4rem;cursor:pointer}
.ok{background:#2b8a3e;color:#fff}.ko{background:#c92a2a;color:#fff}
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

function renderSandboxPayPage(supply: {
  reference: string;
  amount: number;
  actionUrl: string;
}): string {
  return page(
    'Paiement de test',
    `<h1>Paiement de test (bac à sable)</h1>
<p>Référence : <strong>${escapeHtml(supply.reference)}</strong></p>
<p class="amount">${escapeHtml(formatAmount(supply.amount))}</p>
<p>Aucun argent réel n’est débité. Choisissez l’issue du paiement.</p>
<form method="post" action="${escapeHtml(supply.actionUrl)}">
<button class="ok" type="submit" name="outcome" value="SUCCESS">Payer (succès)</button>
<button class="ko" type="submit" name="outcome" value="FAILED">Refuser (échec)</button>
</form>`,
  );
}

function renderSandboxResultPage(result: {
  reference: string;
  transactionId: string;
  status: 'SUCCESS' | 'FAILED';
}): string {
  const message = result.status === 'SUCCESS' ? 'Paiement effectué' : 'Paiement refusé';
  const payload = JSON.stringify({ type: 'filiere-sandbox-payment', ...result }).replace(
    /</g,
    '\\u003c',
  );
  return page(
    message,
    `<h1>${escapeHtml(message)}</h1>
<p>Transaction : <code>${escapeHtml(result.transactionId)}</code></p>
<p>Vous pouvez fermer cette fenêtre.</p>
<script>
(function(){var m=${payload};
if(window.opener){window.opener.postMessage(m,window.location.origin);setTimeout(function(){window.close()},800);}
else if(window.parent!==window){window.parent.postMessage(m,window.location.origin);}})();
</script>`,
  );
}
