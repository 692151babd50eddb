import type { StatementLine } from '../domain/lines.js';

/**
 * How one row of a bank's CSV statement becomes a statement line, shared by the API (the
 * import) and the web (the mapping form's preview of a sample file). No dependency: the web
 * bundles it.
 */

/** Which CSV column holds what, by header name (docs/reconciliation.md). */
export interface BankCsvMapping {
  delimiter: ',' | ';' | '\t';
  date: string;
  /** dayjs-like order of the date: ISO (YYYY-MM-DD…) or DD/MM/YYYY. */
  dateFormat: 'ISO' | 'DD/MM/YYYY';
  amount: string;
  /** A column holding CRDT/DBIT or C/D; absent: a negative amount is money out. */
  direction?: string | undefined;
  reference: string;
  /** The text where the payer wrote our reference (APP-…). */
  label: string;
  /** The payer's or payee's account, when the bank gives it. */
  account?: string | undefined;
}

const OUR_REFERENCE = /\b(APP-[A-Z0-9-]+)\b/i;

/** `12 500`, `12.500`, `12500,00`, `-3 000` → whole francs (F CFA has no cents). */
function francs(raw: string): number | null {
  const cleaned = raw
    .replace(/[\s\u00a0\u202f]/g, '')
    .replace(/[.,]00$/, '')
    .replace(/[.,]/g, '');
  if (!/^-?\d+$/.test(cleaned)) return null;
  const n = Number(cleaned);
  return Number.isSafeInteger(n) ? n : null;
}

function instant(raw: string, format: BankCsvMapping['dateFormat']): string | null {
  const value = raw.trim();
  if (format === 'DD/MM/YYYY') {
    const m = /^(\d{2})\/(\d{2})\/(\d{4})(?:\s+(\d{2}):(\d{2}))?/.exec(value);
    if (!m) return null;
    const time = m[4] ? `${m[4]}:${m[5]}:00` : '12:00:00';
    return `${m[3]}-${m[2]}-${m[1]}T${time}+01:00`;
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T12:00:00+01:00`;
  return Number.isNaN(Date.parse(value)) ? null : value;
}

/** What makes a row unreadable, as the refusal names it. */
export type BankCsvRowError = 'montant illisible' | 'date illisible' | 'référence manquante';

/**
 * One row read with the bank's mapping: a negative amount (or a direction column saying
 * D/DBIT/DEBIT) is money out; our reference is looked for in the label; a date without a
 * time is taken at noon, Benin time.
 */
export function readBankCsvRow(
  row: Record<string, string>,
  mapping: BankCsvMapping,
): { line: StatementLine } | { error: BankCsvRowError } {
  const signed = francs(row[mapping.amount] ?? '');
  if (signed === null) return { error: 'montant illisible' };
  const when = instant(row[mapping.date] ?? '', mapping.dateFormat);
  if (when === null) return { error: 'date illisible' };
  const reference = (row[mapping.reference] ?? '').trim();
  if (reference === '') return { error: 'référence manquante' };
  const sign = mapping.direction ? (row[mapping.direction] ?? '').trim().toUpperCase() : '';
  const out = signed < 0 || sign === 'D' || sign === 'DBIT' || sign === 'DEBIT';
  const label = row[mapping.label] ?? '';
  const account = mapping.account ? (row[mapping.account] ?? '').trim() || null : null;
  return {
    line: {
      source: 'BANK',
      providerReference: reference,
      reference: OUR_REFERENCE.exec(label)?.[1]?.toUpperCase() ?? null,
      direction: out ? 'OUT' : 'IN',
      amount: Math.abs(signed),
      account,
      occurredAt: new Date(when).toISOString(),
    },
  };
}
