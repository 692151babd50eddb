import { z } from 'zod';

/**
 * The dashboard's date range (spec platform-and-wallet §2 "Dashboard", actors-contracts-admin
 * §2.11): the presets Aujourd'hui, Semaine passée, Mois passé, Année passée, Depuis le début,
 * or two picked days. Days are Benin's: Africa/Porto-Novo is UTC+1 all year, so between 23:00
 * and 24:00 UTC 'today' is already the next UTC day, whatever the browser's own zone.
 */
export type DashboardPreset = 'today' | 'lastWeek' | 'lastMonth' | 'lastYear' | 'all';

export const DASHBOARD_PRESETS: readonly DashboardPreset[] = [
  'today',
  'lastWeek',
  'lastMonth',
  'lastYear',
  'all',
];

/** The preset a dashboard opens on: the whole history, so the figures are never empty. */
export const DEFAULT_PRESET: DashboardPreset = 'all';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Benin's calendar day of an instant, `YYYY-MM-DD`. */
export function portoNovoDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Africa/Porto-Novo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** A calendar day moved by whole days, months or years (clamped to the month's last day). */
export function shiftDay(day: string, by: { days?: number; months?: number; years?: number }) {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const year = y + (by.years ?? 0);
  const monthIndex = m - 1 + (by.months ?? 0);
  const first = new Date(Date.UTC(year, monthIndex, 1));
  const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  const date = new Date(
    Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, lastDay.getUTCDate())),
  );
  date.setUTCDate(date.getUTCDate() + (by.days ?? 0));
  return date.toISOString().slice(0, 10);
}

export interface DayRange {
  /** First day, included (`YYYY-MM-DD`, Benin's calendar); absent: from the beginning. */
  from?: string;
  /** Last day, included; absent: up to now. */
  to?: string;
}

/**
 * A preset's days: today alone, or the week, month or year that ends today (the same
 * reading as the lists' 'Filtrer'), or no bound for Depuis le début.
 */
export function presetDays(preset: DashboardPreset, now: Date = new Date()): DayRange {
  const today = portoNovoDay(now);
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'lastWeek':
      return { from: shiftDay(today, { days: -7 }), to: today };
    case 'lastMonth':
      return { from: shiftDay(today, { months: -1 }), to: today };
    case 'lastYear':
      return { from: shiftDay(today, { years: -1 }), to: today };
    case 'all':
      return {};
  }
}

const dayParam = z.string().regex(DAY).optional().catch(undefined);

/**
 * The dashboard's URL state: a preset (`?preset=lastMonth`), or picked days
 * (`?from=2026-01-01&to=2026-03-31`, which win over a preset), and the super admin's cluster.
 * A bad value reads as absent.
 */
export const dashboardSearch = z.object({
  preset: z
    .enum(DASHBOARD_PRESETS as [DashboardPreset, ...DashboardPreset[]])
    .optional()
    .catch(undefined),
  from: dayParam,
  to: dayParam,
  clusterId: z.guid().optional().catch(undefined),
  tab: z.enum(['delivery', 'carriage', 'inputAdvance']).optional().catch(undefined),
});

export type DashboardSearch = z.infer<typeof dashboardSearch>;

/** The days the dashboard asks for: the picked days, else the preset's (default: all). */
export function searchDays(search: DashboardSearch, now: Date = new Date()): DayRange {
  if (search.from || search.to) {
    const range: DayRange = {};
    if (search.from) range.from = search.from;
    if (search.to) range.to = search.to;
    if (range.from && range.to && range.from > range.to) return { from: range.to, to: range.from };
    return range;
  }
  return presetDays(search.preset ?? DEFAULT_PRESET, now);
}

/** The preset shown as chosen: none when days were picked by hand. */
export function activePreset(search: DashboardSearch): DashboardPreset | null {
  if (search.from || search.to) return null;
  return search.preset ?? DEFAULT_PRESET;
}

/** The dashboard's tabs of contract cards. */
export const DASHBOARD_TABS = ['delivery', 'carriage', 'inputAdvance'] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

/** Today as the header shows it, in Benin: 'lundi 23 novembre 2026'. */
export function formatToday(lang: string, now: Date = new Date()): string {
  return new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'fr-FR', {
    timeZone: 'Africa/Porto-Novo',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(now);
}

/** A Benin day as the range line shows it: '21/11/2026'. */
export function formatDay(day: string): string {
  const [y, m, d] = day.split('-');
  return `${d}/${m}/${y}`;
}
