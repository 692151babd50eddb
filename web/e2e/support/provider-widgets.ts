import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the payment providers, on 127.0.0.1, for the browser tests: each
 * serves a checkout script exposing the provider's documented widget API, and answers the
 * server's verification call like the provider.
 *
 * - `/kkiapay/k.js`: `openKkiapayWidget(options)`, `addSuccessListener`, `addFailedListener`,
 *   `addKkiapayCloseListener`, `removeKkiapayListener(event)`; the overlay's buttons call the
 *   success listeners with `{transactionId}`, the failed ones with `{transactionId, reason}`,
 *   or the close ones. `POST …/api/v1/transactions/status {transactionId}` answers
 *   `{status, amount, transactionId, partnerId, state}`.
 * - `/fedapay/checkout.js`: `FedaPay.init({public_key, transaction, customer, onComplete})`
 *   returning `{open()}`, `FedaPay.CHECKOUT_COMPLETED`, `FedaPay.DIALOG_DISMISSED`; the
 *   overlay's buttons call `onComplete({reason, transaction: {id, status}})` or
 *   `onComplete({reason: DIALOG_DISMISSED})`. `GET …/v1/transactions/{id}` answers
 *   `{"v1/transaction": {id, status, amount, custom_metadata: {reference}}}`.
 *
 * A transaction id carries its outcome, amount and reference (base64url JSON), so the
 * verification answers what the payer chose in the browser without any shared state. Every
 * widget call is kept in `window.__providerCalls` for the test to read.
 */
export interface ProviderStandIn {
  origin: string;
  kkiapayScript: string;
  fedapayScript: string;
  /** Base URLs to give the API as KKIAPAY_BASE_URL / FEDAPAY_BASE_URL (sandbox mode). */
  kkiapayApi: string;
  fedapayApi: string;
  /** The verification calls the API made (provider, transaction id). */
  verifications: { provider: 'kkiapay' | 'fedapay'; transactionId: string }[];
  close(): Promise<void>;
}

const overlay = `
function __standInOverlay(title, buttons) {
  var old = document.getElementById('provider-stand-in');
  if (old) old.remove();
  var box = document.createElement('div');
  box.id = 'provider-stand-in';
  box.setAttribute('role', 'dialog');
  box.setAttribute('aria-label', title);
  box.style.cssText = 'position:fixed;inset:0;z-index:100000;background:rgba(0,0,0,.4);display:flex;align-items:center;justify-content:center';
  var panel = document.createElement('div');
  panel.style.cssText = 'background:#fff;color:#111;padding:24px;border-radius:8px;display:flex;gap:12px';
  buttons.forEach(function (b) {
    var button = document.createElement('button');
    button.type = 'button';
    button.textContent = b.label;
    button.onclick = function () { box.remove(); b.run(); };
    panel.appendChild(button);
  });
  box.appendChild(panel);
  document.body.appendChild(box);
}
function __standInId(prefix, outcome) {
  var json = JSON.stringify(outcome);
  var b64 = btoa(unescape(encodeURIComponent(json))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  return prefix + b64;
}
window.__providerCalls = window.__providerCalls || [];
`;

const kkiapayScript = `(function () {
${overlay}
var listeners = { success: [], failed: [], close: [] };
window.addSuccessListener = function (cb) { listeners.success.push(cb); };
window.addFailedListener = function (cb) { listeners.failed.push(cb); };
window.addKkiapayCloseListener = function (cb) { listeners.close.push(cb); };
window.removeKkiapayListener = function (event) { if (listeners[event]) listeners[event] = []; };
window.openKkiapayWidget = function (options) {
  window.__providerCalls.push({ provider: 'kkiapay', options: JSON.parse(JSON.stringify(options)) });
  var outcome = function (status) {
    return __standInId('kkp_', { s: status, a: Number(options.amount), r: String(options.data) });
  };
  __standInOverlay('KKiaPay (test)', [
    { label: 'Payer avec KKiaPay', run: function () {
      var id = outcome('SUCCESS');
      listeners.success.forEach(function (cb) { cb({ transactionId: id }); });
    } },
    { label: 'Refuser le paiement KKiaPay', run: function () {
      var id = outcome('FAILED');
      listeners.failed.forEach(function (cb) { cb({ transactionId: id, reason: 'refused' }); });
    } },
    { label: 'Fermer KKiaPay', run: function () {
      listeners.close.forEach(function (cb) { cb(); });
    } },
  ]);
};
})();`;

const fedapayScript = `(function () {
${overlay}
window.FedaPay = {
  CHECKOUT_COMPLETED: 'CHECKOUT COMPLETE',
  DIALOG_DISMISSED: 'DIALOG DISMISSED',
  init: function (options) {
    window.__providerCalls.push({ provider: 'fedapay', options: JSON.parse(JSON.stringify(options)) });
    return {
      open: function () {
        var transaction = options.transaction || {};
        var reference = (transaction.custom_metadata || {}).reference;
        __standInOverlay('FedaPay (test)', [
          { label: 'Payer avec FedaPay', run: function () {
            var id = __standInId('fdp_', { s: 'approved', a: Number(transaction.amount), r: String(reference) });
            options.onComplete({ reason: window.FedaPay.CHECKOUT_COMPLETED, transaction: { id: id, status: 'approved' } });
          } },
          { label: 'Fermer FedaPay', run: function () {
            options.onComplete({ reason: window.FedaPay.DIALOG_DISMISSED });
          } },
        ]);
      },
    };
  },
};
})();`;

function decode(id: string, prefix: string): { s: string; a: number; r: string } | null {
  if (!id.startsWith(prefix)) return null;
  try {
    return JSON.parse(Buffer.from(id.slice(prefix.length), 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  try {
    return JSON.parse(raw || '{}');
  } catch {
    return {};
  }
}

export async function startProviderStandIn(): Promise<ProviderStandIn> {
  const verifications: ProviderStandIn['verifications'] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method === 'GET' && url.pathname === '/kkiapay/k.js') {
        return send(res, 200, 'application/javascript; charset=utf-8', kkiapayScript);
      }
      if (req.method === 'GET' && url.pathname === '/fedapay/checkout.js') {
        return send(res, 200, 'application/javascript; charset=utf-8', fedapayScript);
      }
      if (req.method === 'POST' && url.pathname.endsWith('/api/v1/transactions/status')) {
        const { transactionId } = await readJson(req);
        const id = String(transactionId ?? '');
        verifications.push({ provider: 'kkiapay', transactionId: id });
        const tx = decode(id, 'kkp_');
        if (!tx) return send(res, 404, 'application/json', '{"status":"NOT_FOUND"}');
        return send(
          res,
          200,
          'application/json',
          JSON.stringify({
            status: tx.s,
            amount: tx.a,
            transactionId: id,
            partnerId: tx.r,
            state: tx.r,
          }),
        );
      }
      const fedapay = /\/v1\/transactions\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && fedapay) {
        const id = decodeURIComponent(fedapay[1]!);
        verifications.push({ provider: 'fedapay', transactionId: id });
        const tx = decode(id, 'fdp_');
        if (!tx) return send(res, 404, 'application/json', '{"message":"not found"}');
        return send(
          res,
          200,
          'application/json',
          JSON.stringify({
            'v1/transaction': {
              id,
              status: tx.s,
              amount: tx.a,
              custom_metadata: { reference: tx.r },
            },
          }),
        );
      }
      send(res, 404, 'text/plain', 'not found');
    })().catch(() => send(res, 500, 'text/plain', 'stand-in error'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    kkiapayScript: `${origin}/kkiapay/k.js`,
    fedapayScript: `${origin}/fedapay/checkout.js`,
    kkiapayApi: `${origin}/sandbox-kkiapay`,
    fedapayApi: `${origin}/sandbox-fedapay`,
    verifications,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
