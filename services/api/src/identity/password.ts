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
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

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
