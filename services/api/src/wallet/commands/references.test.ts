import { describe, expect, it } from 'vitest';
import { newReference } from './references.js';

describe('newReference', () => {
  it('is the prefix and 10 symbols a person can retype (no 0, O, 1, I, L)', () => {
    for (const prefix of ['APP', 'TRF', 'RET', 'FIN'] as const) {
      expect(newReference(prefix)).toMatch(
        new RegExp(`^${prefix}-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{10}$`),
      );
    }
  });

  it('never repeats across many draws of its pooled randomness (several refills)', () => {
    const references = Array.from({ length: 5_000 }, () => newReference('TRF'));
    expect(new Set(references).size).toBe(references.length);
    // Every symbol of the alphabet comes up: the pool is random bytes, not a fixed pattern.
    const symbols = new Set(references.flatMap((r) => [...r.slice(4)]));
    expect(symbols.size).toBe(31);
  });
});
