/** One bar of the yearly chart: the month's short label and its transaction count. */
export interface MonthBar {
  [key: string]: string | number;
  month: string;
  count: number;
}

type Point = {
  month?: unknown;
  period?: unknown;
  count?: unknown;
  total?: unknown;
  value?: unknown;
};

function monthIndex(point: Point): number | null {
  const raw = point.month ?? point.period;
  if (typeof raw === 'number') return raw >= 1 && raw <= 12 ? raw - 1 : null;
  if (typeof raw === 'string') {
    // '2026-03', '2026-03-01…' or '3'
    const m = /^(?:\d{4}-)?(\d{1,2})(?:-|$|T)/.exec(raw);
    const n = m ? Number(m[1]) : NaN;
    return n >= 1 && n <= 12 ? n - 1 : null;
  }
  return null;
}

function countOf(point: Point): number {
  const value = point.count ?? point.total ?? point.value;
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

/**
 * The twelve bars (Jan … Déc) from the API's `paiementStats`: an array of twelve
 * counts, or points `{month|period, count}`; missing months are 0.
 */
export function monthlyBars(stats: unknown, monthLabels: readonly string[]): MonthBar[] {
  const counts = new Array<number>(12).fill(0);
  const series =
    stats && typeof stats === 'object' && !Array.isArray(stats) && 'paiementStats' in stats
      ? (stats as { paiementStats: unknown }).paiementStats
      : stats;
  if (Array.isArray(series)) {
    series.forEach((item, i) => {
      if (typeof item === 'number') {
        if (i < 12) counts[i] = item;
      } else if (item && typeof item === 'object') {
        const idx = monthIndex(item as Point);
        if (idx !== null) counts[idx] = (counts[idx] ?? 0) + countOf(item as Point);
      }
    });
  }
  return counts.map((count, i) => ({ month: monthLabels[i] ?? String(i + 1), count }));
}

/** The years a picker offers: from `first` (or five years back) to the current year, newest first. */
export function pickerYears(now: Date, first?: number): number[] {
  const current = now.getFullYear();
  const from = Math.min(first ?? current - 4, current);
  const years: number[] = [];
  for (let y = current; y >= from; y--) years.push(y);
  return years;
}
