import { isRecord, parseAmount, rejectRetryable, requestJson, type HttpOptions } from './http.js';
import {
  ProviderUnavailableError,
  type PaymentProvider,
  type PayoutProgress,
  type PayoutRequest,
  type PayoutResult,
  type ProviderStatus,
  type ProviderTransaction,
} from './port.js';

export interface FedapayOptions extends HttpOptions {
  baseUrl: string;
  publicKey: string;
  secretKey: string;
  /** Checkout.js, the script the browser loads (FEDAPAY_CHECKOUT_SCRIPT_URL). */
  checkoutScriptUrl?: string;
}

export const FEDAPAY_CHECKOUT_SCRIPT = 'https://cdn.fedapay.com/checkout.js?v=1.1.7';

/**
 * FedaPay. Verification is `GET {base}/v1/transactions/{id}` with `Authorization: Bearer
 * <secret>`; the object comes wrapped as `{"v1/transaction": {...}}`. Its `status`
 * (approved/transferred → SUCCESS, declined/canceled/refunded/expired → FAILED, anything
 * else → PENDING), `amount`, and our reference in `merchant_reference` or
 * `custom_metadata.reference` (the widget sets both).
 *
 * Payouts: `POST /v1/payouts` (amount, XOF, mode mtn_open or moov from the number's
 * operator, customer phone) creates it (`pending`, no money moved), the caller stores its id
 * (`progress.created`), then `PUT /v1/payouts/start` sends it. A payout still `started` or
 * `scheduled` answers PENDING; `checkPayout` reads `GET /v1/payouts/{id}` (`sent` → SUCCESS,
 * `failed` → FAILED) and starts it only while it is still `pending`. FedaPay pays out to
 * mobile money only, so a BANK payout answers FAILED with that reason.
 */
export function createFedapayProvider(options: FedapayOptions): PaymentProvider {
  const base = options.baseUrl.replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${options.secretKey}` };
  const call = async (method: string, path: string, body?: unknown) =>
    rejectRetryable(
      'fedapay',
      await requestJson('fedapay', `${base}${path}`, { method, headers, body }, options),
    );

  return {
    name: 'fedapay',
    // For Checkout.js `FedaPay.init({public_key, environment, transaction, customer,
    // onComplete}).open()`. The reference travels in `custom_metadata` only: FedaPay wants a
    // `merchant_reference` unique per transaction, and 'Réessayer' opens another transaction
    // for the same supply.
    widgetConfig: ({ reference, amount, phone }) => {
      const number = phone ? beninPhone(phone) : null;
      return {
        provider: 'fedapay',
        reference,
        amount,
        publicKey: options.publicKey,
        environment: /sandbox/i.test(base) ? 'sandbox' : 'live',
        transaction: {
          amount,
          description: `Approvisionnement ${reference}`,
          custom_metadata: { reference },
        },
        ...(number ? { customer: { phone_number: { number: number.e164, country: 'bj' } } } : {}),
        script: options.checkoutScriptUrl ?? FEDAPAY_CHECKOUT_SCRIPT,
      };
    },
    async verify(transactionId: string): Promise<ProviderTransaction> {
      const answer = await call('GET', `/v1/transactions/${encodeURIComponent(transactionId)}`);
      if (answer.status === 404)
        return { status: 'FAILED', amount: 0, reference: '', transactionId };
      const transaction = unwrap(answer.body, 'v1/transaction');
      if (answer.status >= 300 || transaction === null) {
        throw new ProviderUnavailableError('fedapay', `unexpected answer (HTTP ${answer.status})`);
      }
      return readTransaction(transaction, transactionId);
    },
    // `GET /v1/transactions/search?q=<reference>`; only the transactions that carry the
    // reference are kept, whatever else the search matched (its text search is broad).
    async paymentsFor(reference: string): Promise<ProviderTransaction[]> {
      const answer = await call(
        'GET',
        `/v1/transactions/search?q=${encodeURIComponent(reference)}&per_page=100`,
      );
      const list = Array.isArray(answer.body)
        ? answer.body
        : isRecord(answer.body) && Array.isArray(answer.body['v1/transactions'])
          ? answer.body['v1/transactions']
          : null;
      if (answer.status >= 300 || list === null) {
        throw new ProviderUnavailableError('fedapay', `unexpected answer (HTTP ${answer.status})`);
      }
      return list
        .filter(isRecord)
        .map((transaction) => readTransaction(transaction, String(transaction.id ?? '')))
        .filter((t) => t.reference === reference && t.transactionId !== '');
    },
    async payout(request: PayoutRequest, progress?: PayoutProgress): Promise<PayoutResult> {
      if (request.method === 'BANK') {
        return { status: 'FAILED', reason: 'FedaPay ne propose pas de virement bancaire sortant' };
      }
      const phone = beninPhone(request.destination);
      if (phone === null) return { status: 'FAILED', reason: 'Numéro mobile money invalide' };
      // A created payout moves no money until it is started: an answer lost here leaves at
      // most an unstarted payout behind, and the retry creates another.
      const created = await call('POST', '/v1/payouts', {
        amount: request.amount,
        currency: { iso: 'XOF' },
        mode: phone.operator === 'MOOV' ? 'moov' : 'mtn_open',
        merchant_reference: request.reference,
        customer: { phone_number: { number: phone.e164, country: 'bj' } },
      });
      if (created.status >= 400) {
        return {
          status: 'FAILED',
          reason: providerMessage(created.body) ?? `Refusé (HTTP ${created.status})`,
        };
      }
      const payout = unwrap(created.body, 'v1/payout');
      if (payout === null || payout.id === undefined || payout.id === null) {
        throw new ProviderUnavailableError('fedapay', 'payout answer without id');
      }
      const providerId = String(payout.id);
      await progress?.created(providerId);
      return start(providerId);
    },
    async checkPayout(providerId: string): Promise<PayoutResult> {
      const current = await read(providerId);
      // Created but never started (the start was lost or refused before it moved money).
      if (current.status === 'pending') return start(providerId);
      return current.result;
    },
  };

  /** `PUT /v1/payouts/start`; a refusal is believed only if the payout did not start. */
  async function start(providerId: string): Promise<PayoutResult> {
    const started = await call('PUT', '/v1/payouts/start', {
      payouts: [{ id: /^\d+$/.test(providerId) ? Number(providerId) : providerId }],
    });
    if (started.status >= 400) {
      const current = await read(providerId);
      if (current.status !== 'pending') return current.result;
      return {
        status: 'FAILED',
        providerId,
        reason: providerMessage(started.body) ?? 'Envoi refusé',
      };
    }
    const sent = firstPayout(started.body);
    return { status: mapFedapayPayoutStatus(sent?.status ?? 'started'), providerId };
  }

  /** `GET /v1/payouts/{id}`: FedaPay's status (pending, scheduled, started, sent, failed…). */
  async function read(providerId: string): Promise<{ status: string; result: PayoutResult }> {
    const answer = await call('GET', `/v1/payouts/${encodeURIComponent(providerId)}`);
    if (answer.status >= 400) {
      return {
        status: 'unknown',
        result: {
          status: 'FAILED',
          providerId,
          reason: providerMessage(answer.body) ?? `Paiement introuvable (HTTP ${answer.status})`,
        },
      };
    }
    const payout = unwrap(answer.body, 'v1/payout');
    if (payout === null) throw new ProviderUnavailableError('fedapay', 'payout answer unreadable');
    const status = typeof payout.status === 'string' ? payout.status.toLowerCase() : '';
    const mapped = mapFedapayPayoutStatus(status);
    const reason =
      typeof payout.last_error_message === 'string' && payout.last_error_message !== ''
        ? payout.last_error_message
        : undefined;
    return {
      status,
      result: {
        status: mapped,
        providerId,
        ...(mapped === 'FAILED' ? { reason: reason ?? 'Paiement refusé par FedaPay' } : {}),
      },
    };
  }
}

/** A FedaPay transaction object as the port's answer (our reference from its metadata). */
function readTransaction(
  transaction: Record<string, unknown>,
  transactionId: string,
): ProviderTransaction {
  const status = mapFedapayStatus(transaction.status);
  const amount = parseAmount(transaction.amount);
  if (amount === null) {
    if (status === 'SUCCESS') throw new ProviderUnavailableError('fedapay', 'amount missing');
    return { status, amount: 0, reference: '', transactionId };
  }
  const metadata = isRecord(transaction.custom_metadata) ? transaction.custom_metadata : {};
  const reference = [transaction.merchant_reference, metadata.reference].find(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  return {
    status,
    amount,
    reference: reference ?? '',
    transactionId: transaction.id === undefined ? transactionId : String(transaction.id),
  };
}

function unwrap(body: unknown, key: string): Record<string, unknown> | null {
  if (!isRecord(body)) return null;
  const inner = body[key];
  if (isRecord(inner)) return inner;
  return 'status' in body ? body : null;
}

function firstPayout(body: unknown): Record<string, unknown> | null {
  if (!isRecord(body)) return null;
  const list = body['v1/payouts'];
  return Array.isArray(list) && isRecord(list[0]) ? list[0] : unwrap(body, 'v1/payout');
}

function providerMessage(body: unknown): string | null {
  return isRecord(body) && typeof body.message === 'string' ? body.message : null;
}

export function mapFedapayStatus(status: unknown): ProviderStatus {
  switch (typeof status === 'string' ? status.toLowerCase() : '') {
    case 'approved':
    case 'transferred':
      return 'SUCCESS';
    case 'declined':
    case 'canceled':
    case 'cancelled':
    case 'refunded':
    case 'expired':
      return 'FAILED';
    default:
      return 'PENDING';
  }
}

export function mapFedapayPayoutStatus(status: unknown): ProviderStatus {
  const value = typeof status === 'string' ? status.toLowerCase() : '';
  if (value === 'sent') return 'SUCCESS';
  if (value === 'failed' || value === 'canceled' || value === 'declined') return 'FAILED';
  return 'PENDING';
}

const MOOV_PREFIXES = new Set(['55', '58', '64', '65', '68', '95', '98', '99']);

/** Benin numbers: 8 digits (former) or 10 digits (`01` + former), with or without +229. */
export function beninPhone(input: string): { e164: string; operator: 'MOOV' | 'MTN' } | null {
  const digits = input.replace(/[\s.-]/g, '').replace(/^(\+|00)?229/, '');
  const former = /^01\d{8}$/.test(digits)
    ? digits.slice(2)
    : /^\d{8}$/.test(digits)
      ? digits
      : null;
  if (former === null) return null;
  return {
    e164: `+22901${former}`,
    operator: MOOV_PREFIXES.has(former.slice(0, 2)) ? 'MOOV' : 'MTN',
  };
}
