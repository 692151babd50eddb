/**
 * The charts' twelve months (spec: "Charts show months Jan to Déc"): a series of
 * `{month: 'YYYY-MM', value}` points becomes twelve bars of the chosen year, missing months 0.
 */
export const MONTHS_FR = [
  'Jan',
  'Fév',
  'Mar',
  'Avr',
  'Mai',
  'Juin',
  'Juil',
  'Aoû',
  'Sep',
  'Oct',
  'Nov',
  'Déc',
] as const;

export interface MonthValue {
  /** Short label of the month (Jan … Déc). */
  month: string;
  /** 'YYYY-MM'. */
  key: string;
  value: number;
}

/**
 * The twelve months of `year`, each with the sum of the series' points of that month. Months
 * after `until` ('YYYY-MM', the range's last month) are 0: a month not yet lived has no
 * figure (the API may carry its last debt forward to December).
 */
export function yearBars<P extends { month: string }>(
  points: readonly P[],
  value: (point: P) => number,
  year: number,
  labels: readonly string[] = MONTHS_FR,
  until?: string,
): MonthValue[] {
  const sums = new Array<number>(12).fill(0);
  for (const point of points) {
    const m = /^(\d{4})-(\d{2})/.exec(point.month);
    if (!m || Number(m[1]) !== year) continue;
    if (until && `${m[1]}-${m[2]}` > until.slice(0, 7)) continue;
    const i = Number(m[2]) - 1;
    if (i >= 0 && i < 12) sums[i] = (sums[i] ?? 0) + value(point);
  }
  return sums.map((v, i) => ({
    month: labels[i] ?? String(i + 1),
    key: `${year}-${String(i + 1).padStart(2, '0')}`,
    value: v,
  }));
}

/** The years a series covers, newest first, always with `current` (the chart's year picker). */
export function seriesYears(points: readonly { month: string }[], current: number): number[] {
  const years = new Set<number>([current]);
  for (const p of points) {
    const y = Number(p.month.slice(0, 4));
    if (Number.isInteger(y) && y > 1900) years.add(y);
  }
  return [...years].sort((a, b) => b - a);
}
