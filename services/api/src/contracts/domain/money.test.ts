import { describe, expect, it } from 'vitest';
import { ValidationError } from '@filiere/platform';
import { deliveredAmountOf, kgToTonnes, tonnesToKg } from './money.js';

describe('rounding', () => {
  it('the contracted quantity is worth exactly the amount', () => {
    expect(deliveredAmountOf({ amount: 1_000_001, quantityKg: 3_000 }, 3_000)).toBe(1_000_001);
  });

  it('another quantity is floored to the franc (never above its exact worth)', () => {
    // 1 000 001 × 1000 / 3000 = 333 333.67 → 333 333
    expect(deliveredAmountOf({ amount: 1_000_001, quantityKg: 3_000 }, 1_000)).toBe(333_333);
    // 7 × 2 / 3 = 4.67 → 4
    expect(deliveredAmountOf({ amount: 7, quantityKg: 3 }, 2)).toBe(4);
    // more than contracted: the same price per kg
    expect(deliveredAmountOf({ amount: 1_000_000, quantityKg: 10_000 }, 12_000)).toBe(1_200_000);
  });

  it('computes on BigInt: products beyond 2^53 stay exact', () => {
    const amount = 9_000_000_000_000; // 9e12 F CFA
    expect(deliveredAmountOf({ amount, quantityKg: 9_999 }, 9_998)).toBe(
      Number((BigInt(amount) * 9_998n) / 9_999n),
    );
  });

  it('tonnes convert to integer kg exactly, at most three decimals', () => {
    expect(tonnesToKg('2')).toBe(2_000);
    expect(tonnesToKg('2.5')).toBe(2_500);
    expect(tonnesToKg('0,125')).toBe(125);
    expect(tonnesToKg(0.1)).toBe(100);
    expect(() => tonnesToKg('0.0005')).toThrow(ValidationError);
    expect(() => tonnesToKg('0')).toThrow(ValidationError);
    expect(() => tonnesToKg('-1')).toThrow(ValidationError);
    expect(kgToTonnes(2_500)).toBe('2.5');
    expect(kgToTonnes(125)).toBe('0.125');
    expect(kgToTonnes(3_000)).toBe('3');
  });
});
