import { describe, expect, it } from 'vitest';
import { formatMoney, groupThousands, parseMoney } from './money.js';

describe('money formatting', () => {
  it('formats integer F CFA the French way', () => {
    expect(formatMoney(1234568).replace(/\s/g, ' ')).toBe('1 234 568 F CFA');
  });
  it('groups thousands with spaces and strips leading zeros and non-digits', () => {
    expect(groupThousands('001234567')).toBe('1 234 567');
    expect(groupThousands('12a3')).toBe('123');
    expect(groupThousands('0')).toBe('0');
    expect(groupThousands('')).toBe('');
  });
  it('parses a grouped amount back to an integer', () => {
    expect(parseMoney('1 234 567')).toBe(1234567);
    expect(parseMoney('  ')).toBeNull();
    expect(parseMoney('99999999999999999999')).toBeNull();
  });
});
