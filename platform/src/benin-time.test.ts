import { describe, expect, it } from 'vitest';
import { beninDay } from './benin-time.js';

describe('beninDay', () => {
  it('is the next day from 23:00 UTC (Porto-Novo is UTC+1, no daylight saving)', () => {
    expect(beninDay('2026-11-22T22:59:59.999Z')).toBe('2026-11-22');
    expect(beninDay('2026-11-22T23:00:00.000Z')).toBe('2026-11-23');
    expect(beninDay(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
    expect(beninDay('2026-07-01T23:30:00Z')).toBe('2026-07-02');
  });
});
