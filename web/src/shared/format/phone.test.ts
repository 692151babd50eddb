import { describe, expect, it } from 'vitest';
import { toE164, toLocalPhone } from './phone.js';

describe('phone numbers', () => {
  it('stores the 8-digit and the 10-digit forms as +22901XXXXXXXX', () => {
    expect(toE164('97123456')).toBe('+2290197123456');
    expect(toE164('01 97 12 34 56')).toBe('+2290197123456');
  });
  it('shows the local form', () => {
    expect(toLocalPhone('+2290197123456')).toBe('0197123456');
    expect(toLocalPhone(null)).toBe('');
  });
});
