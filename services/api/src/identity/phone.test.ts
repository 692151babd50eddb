import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeBeninPhone, phoneOperator } from './phone.js';

describe('Benin phone numbers', () => {
  it('accepts the 8- and 10-digit forms, with or without +229, and stores E.164', () => {
    expect(normalizeBeninPhone('97000000')).toBe('+2290197000000');
    expect(normalizeBeninPhone('0197000000')).toBe('+2290197000000');
    expect(normalizeBeninPhone('+229 01 97 00 00 00')).toBe('+2290197000000');
    expect(normalizeBeninPhone('+22997000000')).toBe('+2290197000000');
  });

  it('accepts 229 without + when 8 or 10 digits follow (the original client’s form)', () => {
    expect(normalizeBeninPhone('22997000000')).toBe('+2290197000000');
    expect(normalizeBeninPhone('2290197000000')).toBe('+2290197000000');
    // 8 digits starting 229 are a local number, not a country code.
    expect(normalizeBeninPhone('22997000')).toBe('+2290122997000');
    for (const bad of ['229970000001', '2290297000000', '22901970000001']) {
      expect(normalizeBeninPhone(bad), bad).toBeNull();
    }
  });

  it('refuses 7 and 11 digits, a 10-digit number not starting 01, and letters', () => {
    for (const bad of ['9700000', '97000000000', '0297000000', '9700000a', '']) {
      expect(normalizeBeninPhone(bad)).toBeNull();
    }
  });

  it('any 8 digits and its 10-digit form normalise to the same number', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{8}$/), (eight) => {
        expect(normalizeBeninPhone(eight)).toBe(normalizeBeninPhone(`01${eight}`));
        expect(normalizeBeninPhone(eight)).toMatch(/^\+22901\d{8}$/);
      }),
    );
  });

  it('operator from the first two of the former 8 digits', () => {
    expect(phoneOperator('+2290195000000')).toBe('MOOV');
    expect(phoneOperator('+2290197000000')).toBe('MTN');
  });
});
