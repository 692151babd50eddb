/**
 * Exact integers for the projectors' sums: a JavaScript number while it is a safe integer, a
 * bigint past 2^53 (a ledger written before the amount ceilings held balances past it). Most
 * batches never leave numbers, which spares a BigInt per event and per posting; `plus` goes to
 * bigint as soon as a sum could round. Written as decimal text (`String`, or `intArray`).
 */
export type Exact = number | bigint;

export function plus(a: Exact, b: Exact): Exact {
  if (typeof a === 'number' && typeof b === 'number') {
    const sum = a + b;
    // Two safe integers add exactly whenever the true sum is safe; a sum that rounded is not.
    if (Number.isSafeInteger(sum)) return sum;
  }
  return BigInt(a) + BigInt(b);
}

export const negate = (a: Exact): Exact => -a;

/** A bigint column read as decimal text: a number when safe, else a bigint. */
export function exact(text: string): Exact {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}
