import { describe, expect, it } from 'vitest';
import { BusinessRuleError } from '@filiere/platform';
import { ceilDiv, computeAmounts, hasAtMostTwoDecimals, hundredths } from './amounts.js';

describe('hundredths', () => {
  it('turns decimals with at most two decimals into exact hundredths', () => {
    expect(hundredths(50)).toBe(5000n);
    expect(hundredths(52.5)).toBe(5250n);
    expect(hundredths(0.07)).toBe(7n);
    expect(hundredths(99.99)).toBe(9999n);
  });
  it('refuses a third decimal', () => {
    expect(() => hundredths(1.005)).toThrow(RangeError);
    expect(hasAtMostTwoDecimals(12.345)).toBe(false);
    expect(hasAtMostTwoDecimals(12.34)).toBe(true);
  });
});

describe('ceilDiv', () => {
  it('rounds up a remainder and leaves exact quotients', () => {
    expect(ceilDiv(10n, 5n)).toBe(2n);
    expect(ceilDiv(11n, 5n)).toBe(3n);
    expect(ceilDiv(0n, 5n)).toBe(0n);
  });
});

describe('computeAmounts (decisions.md "Seasons")', () => {
  const season = {
    unitProductAmount: 120,
    productionIndex: 50,
    quotity: 10,
    fertilizers: [
      { amount: 350, index: 300 },
      { amount: 400, index: 150 },
    ],
  };

  it('exact case: 100 t at 120 F/kg, 50 t/ha, fertilizers 165 000 F/ha, quotity 10 %', () => {
    // H = 100 000 / 50 000 = 2 ha; Σ a_i d_i = 350×300 + 400×150 = 165 000 F/ha
    expect(computeAmounts(season, 100_000)).toEqual({
      quantity: 100_000,
      productionAmount: 12_000_000,
      fertilizerAmount: 330_000,
      minSupplyAmount: 330_000 + 1_200_000,
    });
  });

  it('rounds the fertilizer amount up: 1 kg is 1/50 000 ha → ceil(3.3) = 4', () => {
    expect(computeAmounts(season, 1).fertilizerAmount).toBe(4);
  });

  it('rounds the quota up: 10 % of 1 kg × 120 F = 12, of 7 kg × 120 = 84; 3 % of 840 = 25.2 → 26', () => {
    expect(computeAmounts(season, 1).minSupplyAmount).toBe(4 + 12);
    const three = { ...season, quotity: 3, fertilizers: [] };
    expect(computeAmounts(three, 7)).toEqual({
      quantity: 7,
      productionAmount: 840,
      fertilizerAmount: 0,
      minSupplyAmount: 26,
    });
  });

  it('uses decimals exactly where floats would not: 0.1 + 0.2 style doses and yields', () => {
    // Y = 52.5 t/ha, dose 0.3 ... the schemas admit ≥ 1, the formula is exact anyway:
    const s = {
      unitProductAmount: 1,
      productionIndex: 52.5,
      quotity: 33.33,
      fertilizers: [{ amount: 3, index: 10.1 }],
    };
    // H × a d = 52 500 / 52 500 × 30.3 = 30.3 → 31; quota = ceil(0.3333 × 52 500) = ceil(17 498.25) = 17 499
    expect(computeAmounts(s, 52_500)).toEqual({
      quantity: 52_500,
      productionAmount: 52_500,
      fertilizerAmount: 31,
      minSupplyAmount: 31 + 17_499,
    });
  });

  it('an exact product is not rounded up (no float error pushing it over)', () => {
    // 0.07 × 100 would be 7.000000000000001 in floats
    const s = { unitProductAmount: 100, productionIndex: 1, quotity: 7, fertilizers: [] };
    expect(computeAmounts(s, 1).minSupplyAmount).toBe(7);
  });

  it('quotity 0 and no fertilizer: the minimum supply is 0', () => {
    const s = { unitProductAmount: 150, productionIndex: 40, quotity: 0, fertilizers: [] };
    expect(computeAmounts(s, 40_000)).toMatchObject({ fertilizerAmount: 0, minSupplyAmount: 0 });
  });

  it('amounts past what a number holds exactly are a 422, never a rounded amount', () => {
    const s = {
      unitProductAmount: 1_000_000_000,
      productionIndex: 1,
      quotity: 100,
      fertilizers: [],
    };
    expect(() => computeAmounts(s, 10_000_000_000)).toThrow(BusinessRuleError);
  });
});
