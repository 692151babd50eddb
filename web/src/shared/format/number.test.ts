import { describe, expect, it } from 'vitest';
import { decimalForApi, formatDecimal, isDecimalText, parseDecimal } from './number.js';

/** Intl's narrow no-break spaces read as plain spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('French numbers: one rule to read them, one to print them', () => {
  it('reads a decimal comma as a dot, and spaced thousands', () => {
    expect(parseDecimal('2,5')).toBe(2.5);
    expect(parseDecimal('2.5')).toBe(2.5);
    expect(parseDecimal(' 12 ')).toBe(12);
    expect(parseDecimal('1 234,5')).toBe(1234.5);
    expect(parseDecimal('1\u202f234,5')).toBe(1234.5);
    expect(decimalForApi('273,1')).toBe('273.1');
  });

  it('refuses what is no number, two signs, a sign where none is allowed, too many decimals', () => {
    for (const text of ['', ',', '2,', ',5', '2,5,1', '2.5.1', '2,5.1', 'abc', '1 23', '12 3456']) {
      expect(parseDecimal(text), text).toBeNull();
    }
    expect(parseDecimal('-6,5')).toBeNull();
    expect(parseDecimal('-6,5', { signed: true })).toBe(-6.5);
    expect(isDecimalText('1,2345', { maxDecimals: 3 })).toBe(false);
    expect(isDecimalText('1,234', { maxDecimals: 3 })).toBe(true);
  });

  it('prints decimals with the language’s sign: a comma in French, a dot in English', () => {
    expect(formatDecimal(273.1, 3, 'fr')).toBe('273,1');
    expect(formatDecimal('2.5', 3, 'fr')).toBe('2,5');
    expect(plain(formatDecimal(1234.5, 3, 'fr'))).toBe('1 234,5');
    expect(formatDecimal(2, 3, 'fr')).toBe('2');
    expect(formatDecimal(1.23456, 2, 'fr')).toBe('1,23');
    expect(formatDecimal(2.5, 3, 'en')).toBe('2.5');
    expect(formatDecimal(null)).toBe('');
  });
});
