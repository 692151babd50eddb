import { randomFillSync } from 'node:crypto';

// No 0/O, 1/I/L: a super admin retypes supply references from a bank slip.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const SYMBOLS = 10;

/**
 * Random bytes drawn 4 KiB at a time and handed out 10 by 10, as `crypto.randomUUID` caches
 * its entropy: a draw of 10 bytes per reference costs ~25 µs of the request thread (profiled
 * under the wallet benchmark), one of 4 KiB about the same and serves 409 references.
 */
const pool = Buffer.alloc(4096);
let next = pool.length;

/** A readable random reference such as `APP-7K3M9Q2X4B` (10 symbols, ~49 bits). */
export function newReference(prefix: 'APP' | 'TRF' | 'RET' | 'FIN'): string {
  if (next + SYMBOLS > pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  let out = '';
  for (let i = next; i < next + SYMBOLS; i++) out += ALPHABET[pool[i]! % ALPHABET.length];
  next += SYMBOLS;
  return `${prefix}-${out}`;
}
