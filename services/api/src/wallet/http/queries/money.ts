import { sql, type RawBuilder } from 'kysely';

/**
 * A money column or sum read as decimal text: the shared int8 parser refuses values past
 * 2^53 (RangeError, a 500), and PostgreSQL sums bigint as numeric. The ceilings
 * (MAX_COMMAND_AMOUNT, MAX_BALANCE) keep new balances far below; a ledger written before
 * them may hold more, and a read must still answer.
 */
export const moneyText = (column: string): RawBuilder<string | null> =>
  sql<string | null>`${sql.ref(column)}::text`;

/**
 * The JSON number of a money value read as text: exact up to 2^53 (every amount and balance
 * under the ceilings); past it, the nearest number, never an error.
 */
export function moneyOf(text: string | number | null | undefined): number {
  if (text === null || text === undefined) return 0;
  const value = Number(text);
  return Number.isFinite(value) ? value : 0;
}
