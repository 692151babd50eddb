import { parse } from 'csv-parse/sync';
import { ValidationError } from '@filiere/platform';
import type { StatementLine } from '../domain/index.js';
import type { BankCsvMapping } from '../tables.js';

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

/**
 * A bank's CSV statement read with the column mapping saved for that bank: one line per row,
 * a negative amount (or a direction column saying D/DBIT/DEBIT) is money out; our reference
 * is looked for in the label. A date without a time is taken at noon, Benin time. A row that
 * cannot be read refuses the whole file, naming its row number.
 */
export function parseBankCsv(content: string, mapping: BankCsvMapping): StatementLine[] {
  let rows: Record<string, string>[];
  try {
    rows = parse(content, {
      columns: true,
      delimiter: mapping.delimiter,
      skip_empty_lines: true,
      trim: true,
      bom: true,
    });
  } catch {
    throw new ValidationError('Relevé CSV illisible');
  }
  return rows.map((row, i) => {
    const bad = (what: string) =>
      new ValidationError(`Ligne ${i + 2} du relevé : ${what}`, { row: i + 2 });
    const signed = francs(row[mapping.amount] ?? '');
    if (signed === null) throw bad('montant illisible');
    const when = instant(row[mapping.date] ?? '', mapping.dateFormat);
    if (when === null) throw bad('date illisible');
    const reference = (row[mapping.reference] ?? '').trim();
    if (reference === '') throw bad('référence manquante');
    const sign = mapping.direction ? (row[mapping.direction] ?? '').trim().toUpperCase() : '';
    const out = signed < 0 || sign === 'D' || sign === 'DBIT' || sign === 'DEBIT';
    const label = row[mapping.label] ?? '';
    const account = mapping.account ? (row[mapping.account] ?? '').trim() || null : null;
    return {
      source: 'BANK' as const,
      providerReference: reference,
      reference: OUR_REFERENCE.exec(label)?.[1]?.toUpperCase() ?? null,
      direction: out ? ('OUT' as const) : ('IN' as const),
      amount: Math.abs(signed),
      account,
      occurredAt: new Date(when).toISOString(),
    };
  });
}
