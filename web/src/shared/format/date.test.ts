import { describe, expect, it } from 'vitest';
import { formatDate, presetRange, setDateLocale } from './date.js';

describe('date-range presets', () => {
  const now = new Date(2026, 10, 21, 15, 0);
  it('gives today, the last week, month and year, ending today', () => {
    expect(presetRange('today', now)).toEqual({ from: '2026-11-21', to: '2026-11-21' });
    expect(presetRange('lastWeek', now)).toEqual({ from: '2026-11-14', to: '2026-11-21' });
    expect(presetRange('lastMonth', now)).toEqual({ from: '2026-10-21', to: '2026-11-21' });
    expect(presetRange('lastYear', now)).toEqual({ from: '2025-11-21', to: '2026-11-21' });
  });
  it('has no bounds for Depuis le début', () => {
    expect(presetRange('all', now)).toEqual({});
  });
});

describe('formatDate', () => {
  it('shows the time beside the day, so same-day rows differ', () => {
    setDateLocale('fr');
    const morning = formatDate(new Date(2026, 10, 21, 9, 5));
    const evening = formatDate(new Date(2026, 10, 21, 18, 40));
    expect(morning).toBe('21 nov. 2026, 09:05');
    expect(evening).toBe('21 nov. 2026, 18:40');
    expect(formatDate(null)).toBe('—');
    expect(formatDate('not a date')).toBe('Invalid date');
  });
});
