/**
 * What reconciliation compares: the outside world's statement lines and the ledger's money
 * movements, in F CFA (whole francs).
 */

/** Who sent the statement: a payment provider or the bank of the supply account. */
export const SOURCES = ['FEDAPAY', 'KKIAPAY', 'SANDBOX', 'BANK'] as const;
export type Source = (typeof SOURCES)[number];

/** The ledger's side of a source: the bank account, or the configured payment provider. */
export type Channel = 'BANK' | 'PROVIDER';
export const channelOf = (source: Source): Channel => (source === 'BANK' ? 'BANK' : 'PROVIDER');

/** Money in (a top-up collected) or out (a payout sent). */
export type Direction = 'IN' | 'OUT';

/** One line of a provider's or the bank's statement. */
export interface StatementLine {
  source: Source;
  /** The provider's own id of the transaction (the bank's entry reference): unique per source. */
  providerReference: string;
  /** Our reference when the outside line carries it (a supply's APP-…, a payout's id). */
  reference: string | null;
  direction: Direction;
  amount: number;
  /** The payer's or payee's number or account, when the line names one. */
  account: string | null;
  /** When the money moved (ISO 8601). */
  occurredAt: string;
}

/** A line is identified by its source and the provider's reference. */
export const lineKey = (line: Pick<StatementLine, 'source' | 'providerReference'>): string =>
  `${line.source}:${line.providerReference}`;

/** A supply credited or a payout debited, as the ledger recorded it. */
export interface LedgerMovement {
  /** `supply:<reference>` or `payout:<withdrawalId>`. */
  key: string;
  channel: Channel;
  kind: 'SUPPLY' | 'PAYOUT';
  /** The supply's reference or the withdrawal's id. */
  reference: string;
  /** The provider's transaction (supply) or payout id, when the ledger knows it. */
  providerReference: string | null;
  direction: Direction;
  amount: number;
  account: string | null;
  occurredAt: string;
}

/** The Benin calendar day (UTC+1, no daylight saving) of an instant: `YYYY-MM-DD`. */
export function beninDay(instant: string | number | Date): string {
  const ms = new Date(instant).getTime() + 3_600_000;
  return new Date(ms).toISOString().slice(0, 10);
}

/** The day after `day` (`YYYY-MM-DD`). */
export function nextDay(day: string, by = 1): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + by);
  return d.toISOString().slice(0, 10);
}
