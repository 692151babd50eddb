import { pbkdf2, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { normalizeDeliveryCode } from './domain/index.js';

const derive = promisify(pbkdf2);

/**
 * What an input provider's phone keeps to check a grower's code without the network, and
 * without the code in clear: PBKDF2-HMAC-SHA256 of the normalized code (`AGW_123456`) with
 * a random salt of the request's own. The phone derives the same with WebCrypto from the
 * code typed and compares. The code has 10⁶ values: whoever holds the phone can still try
 * them all, and the iterations are what makes each try cost (docs/security.md).
 */
export interface CodeCheck {
  algorithm: 'PBKDF2-SHA256';
  iterations: number;
  /** Base64 of 16 random bytes. */
  salt: string;
  /** Base64 of the 32-byte derived key. */
  hash: string;
}

/**
 * 100 000 iterations: a phone derives one in a tenth of a second or so, and a code typed is
 * checked against each request it keeps; trying the 10⁶ codes of one request costs one CPU
 * core hours, a GPU seconds to a minute (docs/security.md).
 */
export const CODE_CHECK_ITERATIONS = 100_000;
const KEY_BYTES = 32;

export async function codeCheckOf(
  code: string,
  iterations = CODE_CHECK_ITERATIONS,
  salt: Buffer = randomBytes(16),
): Promise<CodeCheck> {
  const key = await derive(normalizeDeliveryCode(code), salt, iterations, KEY_BYTES, 'sha256');
  return {
    algorithm: 'PBKDF2-SHA256',
    iterations,
    salt: salt.toString('base64'),
    hash: key.toString('base64'),
  };
}

/**
 * The checks already derived, by request and code (a code never changes once given): the
 * derivation costs the server as much as the phone, and a provider opens his list several
 * times a day. Bounded; the oldest entry leaves first.
 */
export class CodeCheckCache {
  private readonly entries = new Map<string, Promise<CodeCheck>>();

  constructor(private readonly max = 5_000) {}

  get(requestId: number, code: string): Promise<CodeCheck> {
    const key = `${requestId}|${normalizeDeliveryCode(code)}`;
    const known = this.entries.get(key);
    if (known) return known;
    const made = codeCheckOf(code);
    made.catch(() => this.entries.delete(key));
    this.entries.set(key, made);
    if (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return made;
  }
}
