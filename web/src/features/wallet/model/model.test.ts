import { describe, expect, it } from 'vitest';
import { amountError, referenceMatches, requiredError } from './amount.js';
import { monthlyBars, pickerYears } from './chart.js';
import { supplyListSearch, transactionListSearch } from './search.js';

const MONTHS = [
  'Jan',
  'Fév',
  'Mar',
  'Avr',
  'Mai',
  'Jui',
  'Juil',
  'Aoû',
  'Sep',
  'Oct',
  'Nov',
  'Déc',
];

describe('wallet search params', () => {
  it('keeps valid values and drops bad ones instead of failing', () => {
    expect(transactionListSearch.parse({ page: '2', q: 'TRF', status: 'FAILED' })).toEqual({
      page: 2,
      q: 'TRF',
      status: 'FAILED',
    });
    expect(transactionListSearch.parse({ page: '0', status: 'NOPE', q: '  ' })).toEqual({});
  });

  it('reads tab and showModal=1 for the supplies page', () => {
    expect(supplyListSearch.parse({ tab: 'bank', showModal: '1' })).toEqual({
      tab: 'bank',
      showModal: 1,
    });
    expect(supplyListSearch.parse({ tab: 'cash', showModal: 'x', status: 'INIT' })).toEqual({
      status: 'INIT',
    });
  });
});

describe('yearly chart', () => {
  it('gives twelve months Jan…Déc from month points, missing months being 0', () => {
    const bars = monthlyBars(
      {
        paiementStats: [
          { month: 1, count: 3 },
          { period: '2026-12', count: '2' },
        ],
      },
      MONTHS,
    );
    expect(bars).toHaveLength(12);
    expect(bars[0]).toEqual({ month: 'Jan', count: 3 });
    expect(bars[11]).toEqual({ month: 'Déc', count: 2 });
    expect(bars.slice(1, 11).every((b) => b.count === 0)).toBe(true);
  });

  it('accepts a plain array of counts and ignores garbage', () => {
    expect(monthlyBars([1, 2, 3], MONTHS).map((b) => b.count)).toEqual([
      1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ]);
    expect(monthlyBars(null, MONTHS).every((b) => b.count === 0)).toBe(true);
    expect(monthlyBars([{ month: 13, count: 9 }], MONTHS).every((b) => b.count === 0)).toBe(true);
  });

  it('offers the last five years, current first', () => {
    expect(pickerYears(new Date('2026-11-21'))).toEqual([2026, 2025, 2024, 2023, 2022]);
    expect(pickerYears(new Date('2026-11-21'), 2025)).toEqual([2026, 2025]);
  });
});

describe('wallet form rules', () => {
  it('requires an amount that is a positive integer', () => {
    expect(amountError(null)).toBe('validation:required');
    expect(amountError(0)).toBe('validation:invalid');
    expect(amountError(1.5)).toBe('validation:invalid');
    expect(amountError(25_000)).toBeNull();
  });

  it('requires a reason', () => {
    expect(requiredError('  ')).toBe('validation:required');
    expect(requiredError('Avance')).toBeNull();
  });

  it('enables bank validation only for the exact reference', () => {
    expect(referenceMatches('SUP-1', 'SUP-1')).toBe(true);
    expect(referenceMatches('sup-1', 'SUP-1')).toBe(false);
    expect(referenceMatches('SUP-1 ', 'SUP-1')).toBe(false);
    expect(referenceMatches('', '')).toBe(false);
  });
});
