import { beninDay } from '@filiere/platform';
import type { DashboardPreset } from './schemas.js';

/** A resolved range: Benin days, both inclusive; `from` null = since the beginning. */
export interface DayRange {
  from: string | null;
  to: string;
}

const parts = (day: string) => day.split('-').map(Number) as [number, number, number];
const format = (d: Date) => d.toISOString().slice(0, 10);

/** `day` moved by whole days. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = parts(day);
  return format(new Date(Date.UTC(y, m - 1, d + days)));
}

/** `day` moved back by whole months, kept in the target month (31 March − 1 month = 28/29 Feb). */
export function minusMonths(day: string, months: number): string {
  const [y, m, d] = parts(day);
  const last = new Date(Date.UTC(y, m - 1 - months + 1, 0)).getUTCDate();
  return format(new Date(Date.UTC(y, m - 1 - months, Math.min(d, last))));
}

/**
 * The range a dashboard answers, from the query (explicit days win over the preset) and the
 * instant `now` (today is its Benin day: at 23:30 UTC it is already tomorrow in Porto-Novo).
 * TODAY = [today, today]; LAST_WEEK = [today − 7 days, today]; LAST_MONTH = [today − 1 month,
 * today]; LAST_YEAR = [today − 12 months, today]; ALL (or nothing) = [beginning, today].
 */
export function resolveRange(
  query: { from?: string; to?: string; preset?: DashboardPreset },
  now: Date,
): DayRange {
  const today = beninDay(now);
  if (query.from || query.to) return { from: query.from ?? null, to: query.to ?? today };
  switch (query.preset) {
    case 'TODAY':
      return { from: today, to: today };
    case 'LAST_WEEK':
      return { from: addDays(today, -7), to: today };
    case 'LAST_MONTH':
      return { from: minusMonths(today, 1), to: today };
    case 'LAST_YEAR':
      return { from: minusMonths(today, 12), to: today };
    default:
      return { from: null, to: today };
  }
}

/** The 12 months ('YYYY-MM') of the calendar year of `day`. */
export function monthsOfYear(day: string): string[] {
  const year = day.slice(0, 4);
  return Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}`);
}
