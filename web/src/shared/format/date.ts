import dayjs from 'dayjs';
import 'dayjs/locale/fr';
import 'dayjs/locale/en';

export function setDateLocale(lang: string): void {
  dayjs.locale(lang === 'en' ? 'en' : 'fr');
}

/**
 * `21 nov. 2026, 14:05`: the day and the time (in the browser's zone, Porto-Novo's for users
 * in Benin), so that rows of the same day can be told apart in the tables; '—' for none and
 * 'Invalid date', as the spec shows, for an unreadable value.
 */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '—';
  const d = dayjs(value);
  return d.isValid() ? d.format('D MMM YYYY, HH:mm') : 'Invalid date';
}

export type DatePreset = 'today' | 'lastWeek' | 'lastMonth' | 'lastYear' | 'all';

export const DATE_PRESETS: DatePreset[] = ['today', 'lastWeek', 'lastMonth', 'lastYear', 'all'];

/** The [from, to] range (ISO dates) of a preset; 'all' has no bounds. */
export function presetRange(preset: DatePreset, now = new Date()): { from?: string; to?: string } {
  const today = dayjs(now).startOf('day');
  const to = today.format('YYYY-MM-DD');
  switch (preset) {
    case 'today':
      return { from: to, to };
    case 'lastWeek':
      return { from: today.subtract(7, 'day').format('YYYY-MM-DD'), to };
    case 'lastMonth':
      return { from: today.subtract(1, 'month').format('YYYY-MM-DD'), to };
    case 'lastYear':
      return { from: today.subtract(1, 'year').format('YYYY-MM-DD'), to };
    case 'all':
      return {};
  }
}
