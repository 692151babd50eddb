import { describe, expect, it } from 'vitest';
import {
  activePreset,
  dashboardSearch,
  formatToday,
  portoNovoDay,
  presetDays,
  searchDays,
  shiftDay,
} from './presets.js';

describe('dashboard presets in Porto-Novo days', () => {
  it("takes Benin's day, not the UTC one: 23:30 UTC is already tomorrow", () => {
    const late = new Date('2026-11-22T23:30:00Z');
    expect(portoNovoDay(late)).toBe('2026-11-23');
    expect(presetDays('today', late)).toEqual({ from: '2026-11-23', to: '2026-11-23' });
    const beforeMidnight = new Date('2026-11-22T22:59:59.999Z');
    expect(presetDays('today', beforeMidnight)).toEqual({ from: '2026-11-22', to: '2026-11-22' });
  });

  it('ends the week, month and year today', () => {
    const now = new Date('2026-11-21T14:00:00Z');
    expect(presetDays('lastWeek', now)).toEqual({ from: '2026-11-14', to: '2026-11-21' });
    expect(presetDays('lastMonth', now)).toEqual({ from: '2026-10-21', to: '2026-11-21' });
    expect(presetDays('lastYear', now)).toEqual({ from: '2025-11-21', to: '2026-11-21' });
    expect(presetDays('all', now)).toEqual({});
  });

  it('crosses month and year ends, and clamps to the shorter month', () => {
    expect(shiftDay('2026-01-03', { days: -7 })).toBe('2025-12-27');
    expect(shiftDay('2026-03-31', { months: -1 })).toBe('2026-02-28');
    expect(shiftDay('2028-02-29', { years: -1 })).toBe('2027-02-28');
    // 1 January 00:30 in Porto-Novo is still 31 December in UTC.
    const newYear = new Date('2026-12-31T23:30:00Z');
    expect(presetDays('lastMonth', newYear)).toEqual({ from: '2026-12-01', to: '2027-01-01' });
  });

  it('reads the URL: a bad value is absent, picked days win over the preset', () => {
    expect(dashboardSearch.parse({ preset: 'nope', from: '21/11/2026', clusterId: 'x' })).toEqual({
      preset: undefined,
      from: undefined,
      to: undefined,
      clusterId: undefined,
    });
    const now = new Date('2026-11-21T10:00:00Z');
    const search = dashboardSearch.parse({ preset: 'today', from: '2026-01-01' });
    expect(searchDays(search, now)).toEqual({ from: '2026-01-01' });
    expect(activePreset(search)).toBeNull();
    expect(searchDays({ from: '2026-05-01', to: '2026-04-01' }, now)).toEqual({
      from: '2026-04-01',
      to: '2026-05-01',
    });
    expect(searchDays({}, now)).toEqual({});
    expect(activePreset({})).toBe('all');
  });

  it("writes today's line on a day of every month, in Benin's day (the e2e test's pattern)", () => {
    // dashboard.test.ts matches the page's line with this pattern: letters, not \w, since
    // 'février', 'août' and 'décembre' have letters \w does not match.
    const line = /^\p{L}+ \d{1,2} \p{L}+ \d{4}$/u;
    for (let month = 1; month <= 12; month++) {
      const noon = new Date(`2026-${String(month).padStart(2, '0')}-15T12:00:00Z`);
      expect(formatToday('fr', noon)).toMatch(line);
    }
    expect(formatToday('fr', new Date('2026-12-06T12:00:00Z'))).toBe('dimanche 6 décembre 2026');
    expect(formatToday('fr', new Date('2026-08-01T12:00:00Z'))).toBe('samedi 1 août 2026');
    // 23:30 UTC on 31 December is 00:30 on 1 January in Porto-Novo (UTC+1).
    expect(formatToday('fr', new Date('2026-12-31T22:59:59Z'))).toBe('jeudi 31 décembre 2026');
    expect(formatToday('fr', new Date('2026-12-31T23:30:00Z'))).toBe('vendredi 1 janvier 2027');
    expect(formatToday('en', new Date('2026-12-31T23:30:00Z'))).toBe('Friday, 1 January 2027');
  });
});
