import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  isStrongPassword,
  passwordHashing,
  PASSWORD_HASHING,
  TEST_PASSWORD_HASHING,
  verifyPassword,
} from './password.js';

describe('password hashing', () => {
  it('uses OWASP’s argon2id minimum outside tests, and its lowest cost only under NODE_ENV=test', () => {
    expect(PASSWORD_HASHING).toEqual({
      algorithm: 2,
      memoryCost: 19456,
      timeCost: 2,
      parallelism: 1,
    });
    expect(passwordHashing('production')).toBe(PASSWORD_HASHING);
    expect(passwordHashing('development')).toBe(PASSWORD_HASHING);
    expect(passwordHashing('')).toBe(PASSWORD_HASHING);
    expect(passwordHashing()).toBe(TEST_PASSWORD_HASHING); // vitest sets NODE_ENV=test
    expect(passwordHashing('test')).toBe(TEST_PASSWORD_HASHING);
  });

  it('hashes with argon2id and checks a hash of either cost (the cost is read from the hash)', async () => {
    const stored = await hashPassword('Secret#123');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=1\$/);
    expect(await verifyPassword(stored, 'Secret#123')).toBe(true);
    expect(await verifyPassword(stored, 'Secret#124')).toBe(false);
    const production = await hash('Secret#123', PASSWORD_HASHING);
    expect(production).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(production, 'Secret#123')).toBe(true);
    expect(await verifyPassword(null, 'Secret#123')).toBe(false);
    expect(await verifyPassword('not a hash', 'Secret#123')).toBe(false);
  });

  it('asks for 8 characters, an uppercase letter, a digit and one of #?*+/@!', () => {
    expect(isStrongPassword('Secret#1')).toBe(true);
    expect(isStrongPassword('Secret#')).toBe(false);
    expect(isStrongPassword('secret#12')).toBe(false);
    expect(isStrongPassword('Secret123')).toBe(false);
  });
});
