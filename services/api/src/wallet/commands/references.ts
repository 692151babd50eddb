import { randomBytes } from 'node:crypto';

// No 0/O, 1/I/L: a super admin retypes supply references from a bank slip.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A readable random reference such as `APP-7K3M9Q2X4B` (10 symbols, ~49 bits). */
export function newReference(prefix: 'APP' | 'TRF' | 'RET' | 'FIN'): string {
  const bytes = randomBytes(10);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return `${prefix}-${out}`;
}
