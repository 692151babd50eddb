import { isRecord, parseAmount, requestJson, type HttpOptions } from './http.js';
import {
  ProviderUnavailableError,
  type PaymentProvider,
  type ProviderStatus,
  type ProviderTransaction,
} from './port.js';

export interface KkiapayOptions extends HttpOptions {
  baseUrl: string;
  publicKey: string;
  privateKey: string;
  secretKey: string;
  /** The widget's script the browser loads (KKIAPAY_WIDGET_SCRIPT_URL). */
  widgetScriptUrl?: string;
}

export const KKIAPAY_WIDGET_SCRIPT = 'https://cdn.kkiapay.me/k.js';

/**
 * KKiaPay. Verification is `POST {base}/api/v1/transactions/status` with `{transactionId}`
 * and the three key headers; the answer carries `status` (SUCCESS, FAILED, PENDING, or a
 * failure code such as INSUFFICIENT_FUND), `amount`, `transactionId`, and back the
 * `partnerId`/`state` (the widget's `data`) we set to our reference.
 *
 * Payouts: KKiaPay's API has no payout per request to a third party (its scheduled
 * `setup_payout` of the merchant's own balance to one fixed destination was withdrawn from
 * the API in February 2023), so payouts go through PAYOUT_PROVIDER (see create-provider.ts);
 * alone, this adapter answers FAILED with that reason.
 */
export const KKIAPAY_NO_PAYOUT = 'KKiaPay ne propose pas de paiement sortant vers un tiers';

export function createKkiapayProvider(options: KkiapayOptions): PaymentProvider {
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    name: 'kkiapay',
    // For `openKkiapayWidget({amount, key, sandbox, phone, data, partnerId, reason})`: `data`
    // and `partnerId` carry our reference back in the status answer (`state`, `partnerId`).
    widgetConfig: ({ reference, amount, phone }) => ({
      provider: 'kkiapay',
      reference,
      amount,
      key: options.publicKey,
      sandbox: /sandbox/i.test(base),
      data: reference,
      partnerId: reference,
      reason: `Approvisionnement ${reference}`,
      ...(phone ? { phone: phone.replace(/^\+/, '') } : {}),
      script: options.widgetScriptUrl ?? KKIAPAY_WIDGET_SCRIPT,
    }),
    async verify(transactionId: string): Promise<ProviderTransaction> {
      const answer = await requestJson(
        'kkiapay',
        `${base}/api/v1/transactions/status`,
        {
          method: 'POST',
          headers: {
            'x-api-key': options.publicKey,
            'x-private-key': options.privateKey,
            'x-secret-key': options.secretKey,
          },
          body: { transactionId },
        },
        options,
      );
      if (answer.status === 404 || answer.status === 400) {
        return { status: 'FAILED', amount: 0, reference: '', transactionId };
      }
      if (answer.status >= 300 || !isRecord(answer.body)) {
        throw new ProviderUnavailableError('kkiapay', `unexpected answer (HTTP ${answer.status})`);
      }
      const body = answer.body;
      const status = mapKkiapayStatus(body.status);
      const amount = parseAmount(body.amount);
      if (amount === null) {
        if (status === 'SUCCESS') throw new ProviderUnavailableError('kkiapay', 'amount missing');
        return { status, amount: 0, reference: '', transactionId };
      }
      const reference = [body.partnerId, body.state].find(
        (value): value is string => typeof value === 'string' && value !== '',
      );
      return {
        status,
        amount,
        reference: reference ?? '',
        transactionId: typeof body.transactionId === 'string' ? body.transactionId : transactionId,
      };
    },
    // Reached only if the adapter is used alone: createPaymentProvider routes payouts to
    // PAYOUT_PROVIDER, and the configuration refuses KKiaPay without one.
    async payout() {
      return { status: 'FAILED', reason: KKIAPAY_NO_PAYOUT };
    },
    async checkPayout() {
      return { status: 'FAILED', reason: KKIAPAY_NO_PAYOUT };
    },
  };
}

export function mapKkiapayStatus(status: unknown): ProviderStatus {
  const value = typeof status === 'string' ? status.toUpperCase() : '';
  if (value === 'SUCCESS') return 'SUCCESS';
  if (value === 'PENDING' || value === 'INITIALIZED' || value === '') return 'PENDING';
  return 'FAILED';
}
