/**
 * Harvest planning, as a pure rule (docs/contracts.md "Harvest forecast"):
 *
 * 1. A pineapple plot is harvested HARVEST_MONTHS (5) months after its floral induction (its
 *    TIF date): the same day of the month five months on, clamped to that month's last day.
 * 2. Its harvest falls in the week (Monday to Sunday) holding that day.
 * 3. The plot's expected tonnes are its estimated production; a plot without an estimate
 *    counts its open contracts' tonnes instead (what the aggregator bought of it), else 0.
 * 4. Open contracts (PENDING, CONFIRMED) count their contracted tonnes in the plot's harvest
 *    week when the plot has a TIF date, otherwise in the week of the contract's delivery date.
 * 5. Tonnes are summed per buying centre (the grower's commune) and week; only the weeks from
 *    the week of `from` and the `weeks` after are kept, in week then centre order.
 *
 * Quantities are kilograms (integers) in and out, so sums are exact.
 */
export const HARVEST_MONTHS = 5;

export interface ForecastPlot {
  plotId: string;
  centre: string;
  /** YYYY-MM-DD, or null when the plot has no floral induction yet. */
  tifDate: string | null;
  /** Estimated production (kg), or null. */
  estimatedKg: number | null;
}

export interface ForecastContract {
  plotId: string;
  centre: string;
  quantityKg: number;
  /** YYYY-MM-DD. */
  deliveryDate: string;
}

export interface ForecastRow {
  centre: string;
  /** The week's Monday, YYYY-MM-DD. */
  week: string;
  expectedKg: number;
  contractedKg: number;
}

const DAY_MS = 86_400_000;
const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (day: string) => new Date(`${day}T00:00:00Z`);

/** Rule 1: the TIF date plus five months, the day clamped to the month's end. */
export function harvestDateOf(tifDate: string): string {
  const tif = utc(tifDate);
  const year = tif.getUTCFullYear();
  const month = tif.getUTCMonth() + HARVEST_MONTHS;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return iso(new Date(Date.UTC(year, month, Math.min(tif.getUTCDate(), last))));
}

/** Rule 2: the Monday of the week holding `day`. */
export function weekOf(day: string): string {
  const d = utc(day);
  const sinceMonday = (d.getUTCDay() + 6) % 7;
  return iso(new Date(d.getTime() - sinceMonday * DAY_MS));
}

export function forecastHarvest(input: {
  plots: readonly ForecastPlot[];
  contracts: readonly ForecastContract[];
  /** Today (YYYY-MM-DD). */
  from: string;
  weeks: number;
}): ForecastRow[] {
  const first = weekOf(input.from);
  const last = iso(new Date(utc(first).getTime() + input.weeks * 7 * DAY_MS));
  const rows = new Map<string, ForecastRow>();
  const add = (centre: string, week: string, expectedKg: number, contractedKg: number) => {
    if (week < first || week > last) return;
    const key = `${week}|${centre}`;
    const row = rows.get(key) ?? { centre, week, expectedKg: 0, contractedKg: 0 };
    row.expectedKg += expectedKg;
    row.contractedKg += contractedKg;
    rows.set(key, row);
  };
  const plots = new Map(input.plots.map((p) => [p.plotId, p]));
  const contractedOf = new Map<string, number>();
  for (const c of input.contracts) {
    contractedOf.set(c.plotId, (contractedOf.get(c.plotId) ?? 0) + c.quantityKg);
    const tif = plots.get(c.plotId)?.tifDate ?? null;
    add(c.centre, weekOf(tif ? harvestDateOf(tif) : c.deliveryDate), 0, c.quantityKg);
  }
  for (const p of input.plots) {
    if (!p.tifDate) continue;
    const expected = p.estimatedKg ?? contractedOf.get(p.plotId) ?? 0;
    add(p.centre, weekOf(harvestDateOf(p.tifDate)), expected, 0);
  }
  return [...rows.values()].sort((a, b) =>
    a.week < b.week ? -1 : a.week > b.week ? 1 : a.centre.localeCompare(b.centre, 'fr'),
  );
}
