import { createRequire } from 'node:module';
import { ValidationError } from '@filiere/platform';
import type { StatementLine } from '../domain/index.js';

/* The part of mt940js (CommonJS, no types of its own) that the import reads. */
interface Mt940Transaction {
  /** Value date (UTC midnight). */
  date: Date;
  /** Entry (booking) date, in the value date's year; '' when the line has none. */
  entryDate: Date | '';
  /** Signed: credit positive, debit negative; a reversal changes the sign. */
  amount: number;
  isReversal: boolean;
  currency: string;
  /** The :86: narrative, lines joined by '\n'. */
  details: string;
  transactionType: string;
  /** The customer reference (may be NONREF). */
  reference: string;
  /** The bank reference after `//`, '' when absent. */
  bankReference: string;
  extraDetails: string;
}
interface Mt940Statement {
  transactionReference: string;
  accountIdentification: string;
  number: { statement: string; sequence?: string; section?: string };
  currency: string;
  openingBalance: number;
  closingBalance: number;
  transactions: Mt940Transaction[];
}

const { Parser } = createRequire(import.meta.url)('mt940js') as {
  Parser: new () => { parse(data: string): Mt940Statement[] };
};

/** Our references as the payer writes them on the transfer (APP-…). */
const OUR_REFERENCE = /\b(APP-[A-Z0-9-]+)\b/i;
/** A Benin IBAN (BJ, two check digits, 24 characters), spaces allowed as banks print it. */
const BENIN_IBAN = /\bBJ\d{2}(?: ?[A-Z0-9]){24}\b/i;
const NO_REFERENCE = new Set(['', 'NONREF', 'NOREF', 'NONE']);
const DAY_MS = 86_400_000;

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The booking day of a `:61:` line: its entry date (MMDD, the value date's year; a booking
 * in early January of a December value date belongs to the next year), else its value date.
 */
function bookingDay(value: Date, entry: Date | ''): string {
  if (entry === '') return isoDay(value);
  const gap = entry.getTime() - value.getTime();
  const shifted = new Date(entry);
  if (gap < -180 * DAY_MS) shifted.setUTCFullYear(shifted.getUTCFullYear() + 1);
  else if (gap > 180 * DAY_MS) shifted.setUTCFullYear(shifted.getUTCFullYear() - 1);
  return isoDay(shifted);
}

/**
 * The lines of a SWIFT MT940 bank statement (one or several statements `:20:`…`:62F:` in a
 * file, with or without the `{1:}{2:}{4:` blocks), parsed by mt940js, which also checks that
 * each statement's opening balance plus its lines gives its closing balance. Amounts in whole
 * F CFA (XOF) only; a credit (`C`, or `RD` the reversal of a debit) is money in, a debit (`D`,
 * or `RC`) money out; dated by the entry date, else the value date, at noon Benin time. The
 * provider reference is the bank's (`//…`), else the customer reference when it is not
 * NONREF, else the account, statement number and the line's place in it; our reference
 * (`APP-…`) is looked for in the `:86:` narrative and the customer reference; the account is
 * the Benin IBAN the narrative names, if any.
 */
export function parseMt940(content: string): StatementLine[] {
  let statements;
  try {
    statements = new Parser().parse(content.replace(/\r\n?/g, '\n'));
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (message.startsWith('Sum of lines')) {
      throw new ValidationError(
        'Le relevé MT940 est incohérent : ses écritures ne donnent pas son solde de clôture',
      );
    }
    throw new ValidationError('Relevé MT940 illisible');
  }
  if (statements.length === 0) throw new ValidationError('Relevé MT940 illisible');
  const lines: StatementLine[] = [];
  for (const statement of statements) {
    if (statement.currency !== 'XOF') {
      throw new ValidationError('Seuls les relevés en F CFA (XOF) sont acceptés');
    }
    const number = [statement.number.statement, statement.number.sequence]
      .filter(Boolean)
      .join('/');
    statement.transactions.forEach((t, index) => {
      const amount = Math.abs(t.amount);
      if (!Number.isSafeInteger(amount) || amount === 0) {
        throw new ValidationError('Montant invalide dans le relevé');
      }
      const customer = t.reference.trim();
      const narrative = `${t.details} ${t.extraDetails}`.replace(/\s+/g, ' ');
      const providerReference =
        t.bankReference.trim() ||
        (NO_REFERENCE.has(customer.toUpperCase()) ? '' : customer) ||
        `${statement.accountIdentification}/${number}/${index + 1}`;
      const reference =
        (OUR_REFERENCE.exec(narrative) ?? OUR_REFERENCE.exec(customer))?.[1]?.toUpperCase() ?? null;
      const iban = BENIN_IBAN.exec(t.details.replace(/\n/g, ' '))?.[0];
      lines.push({
        source: 'BANK',
        providerReference,
        reference,
        direction: t.amount < 0 ? 'OUT' : 'IN',
        amount,
        account: iban ? iban.replace(/ /g, '').toUpperCase() : null,
        occurredAt: new Date(`${bookingDay(t.date, t.entryDate)}T12:00:00+01:00`).toISOString(),
      });
    });
  }
  return lines;
}
