import { describe, expect, it } from 'vitest';
import { kgToTonnes, quantityForm, tonnesToKg } from './quantity.js';

describe('the acceptance quantity in tonnes', () => {
  it('reads tonnes as whole kg, exactly', () => {
    expect(tonnesToKg('80')).toBe(80_000);
    expect(tonnesToKg('80,5')).toBe(80_500);
    expect(tonnesToKg('0.125')).toBe(125);
    expect(tonnesToKg(' 1 000 ')).toBe(1_000_000);
    expect(tonnesToKg('0,1234')).toBeNull();
    expect(tonnesToKg('abc')).toBeNull();
    expect(tonnesToKg('-3')).toBeNull();
    expect(tonnesToKg('')).toBeNull();
  });

  it('shows kg as tonnes the French way', () => {
    expect(kgToTonnes(100_000)).toBe('100');
    expect(kgToTonnes(80_500)).toBe('80,5');
    expect(kgToTonnes(125)).toBe('0,125');
    expect(kgToTonnes(1_500_000)).toBe('1\u202f500');
  });

  it('asks for a number above 0 with the spec’s messages', () => {
    const error = (tonnes: string) => quantityForm.safeParse({ tonnes }).error?.issues[0]?.message;
    expect(error('')).toBe('validation:required');
    expect(error('douze')).toBe('validation:invalid');
    expect(error('0')).toBe('validation:invalid');
    expect(error('2000000')).toBe('validation:invalid');
    expect(quantityForm.safeParse({ tonnes: '60,25' }).success).toBe(true);
  });
});
