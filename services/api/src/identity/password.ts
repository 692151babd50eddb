import { hash, verify } from '@node-rs/argon2';

/** decisions.md: ≥ 8 characters, an uppercase letter, a digit, one of `#?*+/@!`. */
export function isStrongPassword(password: string): boolean {
  return (
    password.length >= 8 &&
    /[A-Z]/.test(password) &&
    /\d/.test(password) &&
    /[#?*+/@!]/.test(password)
  );
}

// argon2id (Algorithm.Argon2id = 2; the enum is `const` and not importable under isolatedModules).
/** OWASP's argon2id minimum: 19 MiB, 2 passes, 1 lane (~26 ms a hash or a check here). */
export const PASSWORD_HASHING = {
  algorithm: 2,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;
/**
 * Under NODE_ENV=test (vitest sets it): argon2id still, at its lowest cost (0.25 ms a check).
 * The security and identity tests alone hash and check passwords 486 times (sign-ins, the demo's
 * accounts in each seeded database): ~13 s of CPU at the production cost, on a 2-core machine
 * whose suite must stay under 15 minutes. A check reads the cost from the stored hash, so every
 * hash the tests check was made under the same options.
 */
export const TEST_PASSWORD_HASHING = {
  algorithm: 2,
  memoryCost: 256,
  timeCost: 1,
  parallelism: 1,
} as const;

/** The options hashes are made with: production's, but under NODE_ENV=test. */
export function passwordHashing(nodeEnv = process.env.NODE_ENV) {
  return nodeEnv === 'test' ? TEST_PASSWORD_HASHING : PASSWORD_HASHING;
}
const OPTIONS = passwordHashing();

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    // Spend the same time as a real check so unknown e-mails are not revealed by timing.
    await verify(await dummyHash(), password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
function dummyHash(): Promise<string> {
  dummy ??= hashPassword('Dummy#Password1');
  return dummy;
}
