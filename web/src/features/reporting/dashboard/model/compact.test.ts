import { describe, expect, it } from 'vitest';
import { formatCompact } from './compact.js';

describe('K, M, Md', () => {
  it('keeps numbers below a thousand whole', () => {
    expect(formatCompact(0)).toBe('0');
    expect(formatCompact(999)).toBe('999');
    expect(formatCompact(12.5)).toBe('12,5');
  });
  it('abbreviates thousands, millions and billions with one decimal at most', () => {
    expect(formatCompact(1000)).toBe('1 K');
    expect(formatCompact(1500)).toBe('1,5 K');
    expect(formatCompact(250_000)).toBe('250 K');
    expect(formatCompact(2_000_000)).toBe('2 M');
    expect(formatCompact(3_456_789)).toBe('3,5 M');
    expect(formatCompact(1_250_000_000)).toBe('1,3 Md');
    expect(formatCompact(42_000_000_000)).toBe('42 Md');
  });
  it('moves to the next unit rather than showing 1 000 K', () => {
    expect(formatCompact(999_960)).toBe('1 M');
    expect(formatCompact(999_940)).toBe('999,9 K');
  });
  it('keeps the sign, and says B in English', () => {
    expect(formatCompact(-1500)).toBe('-1,5 K');
    expect(formatCompact(1_250_000_000, 'en')).toBe('1.3 B');
    expect(formatCompact(1500, 'en')).toBe('1.5 K');
  });
});
