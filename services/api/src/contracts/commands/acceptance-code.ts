import { randomBytes, randomInt, randomUUID, scrypt } from 'node:crypto';
import { promisify } from 'node:util';
import type { CodeToIssue } from '../domain/index.js';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: string,
  keylen: number,
  options: { N: number; r: number; p: number },
) => Promise<Buffer>;

/**
 * scrypt's cost (16 MiB, tens of milliseconds a hash): a code read from the log costs hours to
 * find among the 10⁶ possible ones, while the stream allows 5 wrong entries per code.
 */
const COST = { N: 2 ** 14, r: 8, p: 1 } as const;

/** The hash of an acceptance code with its salt, as the contract's stream keeps it. */
export async function hashAcceptanceCode(code: string, salt: string): Promise<string> {
  return (await scryptAsync(code, salt, 32, COST)).toString('hex');
}

/** A new one-time code for `phone`: 6 digits from the CSPRNG and what the stream keeps of it. */
export async function newAcceptanceCode(
  phone: string,
): Promise<{ code: string; issue: CodeToIssue }> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const salt = randomBytes(16).toString('hex');
  return {
    code,
    issue: { codeId: randomUUID(), phone, salt, codeHash: await hashAcceptanceCode(code, salt) },
  };
}
