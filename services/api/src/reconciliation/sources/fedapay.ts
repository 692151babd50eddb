import { UnavailableError } from '@filiere/platform';
import { beninDay, type StatementLine } from '../domain/index.js';

export interface FedapayStatementOptions {
  baseUrl: string;
  secretKey: string;
  timeoutMs?: number;
}

/** At most this many pages per list (100 items each) for one day. */
const MAX_PAGES = 200;

type Item = Record<string, unknown>;
const isItem = (v: unknown): v is Item => typeof v === 'object' && v !== null && !Array.isArray(v);

const text = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null;

/**
 * FedaPay's record of a Benin day, from its API: the approved (or transferred) transactions,
 * money in, from `GET /v1/transactions/search`, and the sent payouts, money out, from
 * `GET /v1/payouts/search`, both a page of 100 at a time (`page`, `per_page`; the list comes
 * as `v1/transactions` / `v1/payouts` with `meta.next_page`). A line is dated by when the
 * money moved (`approved_at`, `transferred_at`, `sent_at`, else `created_at`); our reference
 * is the transaction's `custom_metadata.reference` or `merchant_reference`, the payout's
 * `merchant_reference` (the withdrawal's id). The provider reference is FedaPay's id for a
 * transaction (the one a credited supply keeps) and `payout-<id>` for a payout (FedaPay numbers
 * the two lists apart, so the same number may name both).
 */
export async function fetchFedapayDay(
  options: FedapayStatementOptions,
  day: string,
): Promise<StatementLine[]> {
  const base = options.baseUrl.replace(/\/+$/, '');
  const list = async (path: string, key: string): Promise<Item[]> => {
    const items: Item[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      let response: Response;
      try {
        response = await fetch(`${base}${path}?per_page=100&page=${page}`, {
          headers: { authorization: `Bearer ${options.secretKey}`, accept: 'application/json' },
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch {
        throw new UnavailableError('FedaPay ne répond pas : réessayez plus tard');
      }
      const body: unknown = await response.json().catch(() => null);
      const found = isItem(body) ? body[key] : null;
      if (!response.ok || !Array.isArray(found)) {
        throw new UnavailableError('FedaPay ne répond pas : réessayez plus tard');
      }
      items.push(...found.filter(isItem));
      const meta = isItem(body) && isItem(body.meta) ? body.meta : {};
      if (found.length === 0 || meta.next_page === null || meta.next_page === undefined) break;
    }
    return items;
  };

  const lines: StatementLine[] = [];
  for (const t of await list('/v1/transactions/search', 'v1/transactions')) {
    const status = text(t.status)?.toLowerCase();
    if (status !== 'approved' && status !== 'transferred') continue;
    const at = text(t.approved_at) ?? text(t.transferred_at) ?? text(t.created_at);
    const id = text(t.id);
    const amount = Number(t.amount);
    if (at === null || id === null || !Number.isSafeInteger(amount)) continue;
    if (beninDay(at) !== day) continue;
    const metadata = isItem(t.custom_metadata) ? t.custom_metadata : {};
    lines.push({
      source: 'FEDAPAY',
      providerReference: id,
      reference: text(metadata.reference) ?? text(t.merchant_reference),
      direction: 'IN',
      amount,
      account: null,
      occurredAt: new Date(at).toISOString(),
    });
  }
  for (const p of await list('/v1/payouts/search', 'v1/payouts')) {
    if (text(p.status)?.toLowerCase() !== 'sent') continue;
    const at = text(p.sent_at) ?? text(p.updated_at) ?? text(p.created_at);
    const id = text(p.id);
    const amount = Number(p.amount);
    if (at === null || id === null || !Number.isSafeInteger(amount)) continue;
    if (beninDay(at) !== day) continue;
    lines.push({
      source: 'FEDAPAY',
      providerReference: `payout-${id}`,
      reference: text(p.merchant_reference),
      direction: 'OUT',
      amount,
      account: null,
      occurredAt: new Date(at).toISOString(),
    });
  }
  return lines;
}
