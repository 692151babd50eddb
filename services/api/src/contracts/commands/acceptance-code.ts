import { createHmac, hkdfSync, randomBytes, randomInt, randomUUID, scrypt } from 'node:crypto';
import { promisify } from 'node:util';
import type { CodeScheme, CodeToIssue } from '../domain/index.js';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: string,
  keylen: number,
  options: { N: number; r: number; p: number },
) => Promise<Buffer>;

/** The scrypt cost of codes whose AcceptanceCodeIssued names no scheme (16 MiB). */
const SCRYPT_COST = { N: 2 ** 14, r: 8, p: 1 } as const;

/** HKDF's label for the acceptance codes' key: no other use of JWT_SECRET derives the same. */
const KEY_LABEL = 'filiere/contracts/acceptance-code/v1';

/**
 * A grower's one-time acceptance codes and what a contract's stream keeps of them:
 * HMAC-SHA256 of the code with a random salt of its own, keyed by a key HKDF derives from
 * JWT_SECRET.
 *
 * Keyed rather than slow: a code has 10⁶ values, so no slow hash a server can afford per code
 * keeps it from whoever reads the log (scrypt at 50 ms a hash is 14 CPU-hours, run in
 * parallel), while without the key the log tells nothing. And a batch's 10,000 codes are drawn
 * in milliseconds rather than minutes. Changing JWT_SECRET voids the codes not yet entered:
 * 'Renvoyer le code' sends a new one.
 *
 * A code issued with no scheme (SCRYPT) is checked with scrypt until a new code replaces it.
 */
export class AcceptanceCodes {
  private constructor(private readonly key: Buffer) {}

  static fromSecret(secret: string): AcceptanceCodes {
    return new AcceptanceCodes(Buffer.from(hkdfSync('sha256', secret, '', KEY_LABEL, 32)));
  }

  /** The hash of `code` with `salt` under `scheme`, as the contract's stream keeps it. */
  async hash(code: string, salt: string, scheme: CodeScheme = 'HMAC-SHA256'): Promise<string> {
    if (scheme === 'SCRYPT')
      return (await scryptAsync(code, salt, 32, SCRYPT_COST)).toString('hex');
    return this.hmac(code, salt);
  }

  /** A new code for `phone`: 6 digits from the CSPRNG and what the stream keeps of it. */
  issue(phone: string): { code: string; issue: CodeToIssue } {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const salt = randomBytes(16).toString('hex');
    return {
      code,
      issue: {
        codeId: randomUUID(),
        phone,
        salt,
        scheme: 'HMAC-SHA256',
        codeHash: this.hmac(code, salt),
      },
    };
  }

  private hmac(code: string, salt: string): string {
    return createHmac('sha256', this.key).update(`${salt}:${code}`).digest('hex');
  }
}
