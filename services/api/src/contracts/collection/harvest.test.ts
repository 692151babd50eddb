import { describe, expect, it } from 'vitest';
import { forecastHarvest, harvestDateOf, weekOf } from './harvest.js';

describe('harvest forecast rule', () => {
  it('harvests five months after the TIF date, the day clamped to the month', () => {
    expect(harvestDateOf('2026-01-15')).toBe('2026-06-15');
    expect(harvestDateOf('2026-09-30')).toBe('2027-02-28');
    expect(harvestDateOf('2027-09-30')).toBe('2028-02-29');
  });

  it('places a day in the week starting on its Monday', () => {
    expect(weekOf('2026-12-07')).toBe('2026-12-07'); // a Monday
    expect(weekOf('2026-12-13')).toBe('2026-12-07'); // its Sunday
    expect(weekOf('2027-01-01')).toBe('2026-12-28');
  });

  it('sums expected and contracted tonnes per centre and week within the horizon', () => {
    const rows = forecastHarvest({
      from: '2026-12-09',
      weeks: 26,
      plots: [
        // Harvest 2027-03-10 (week of 03-08), estimated 12 t.
        { plotId: 'p1', centre: 'Allada', tifDate: '2026-10-10', estimatedKg: 12_000 },
        // Same week, same centre: summed.
        { plotId: 'p2', centre: 'Allada', tifDate: '2026-10-12', estimatedKg: 3_500 },
        // No estimate: its open contract's tonnes stand for it.
        { plotId: 'p3', centre: 'Toffo', tifDate: '2026-10-10', estimatedKg: null },
        // No TIF date: not forecast from the plot.
        { plotId: 'p4', centre: 'Toffo', tifDate: null, estimatedKg: 9_000 },
        // Harvested before the horizon: left out.
        { plotId: 'p5', centre: 'Allada', tifDate: '2026-01-10', estimatedKg: 7_000 },
      ],
      contracts: [
        { plotId: 'p1', centre: 'Allada', quantityKg: 10_000, deliveryDate: '2027-05-01' },
        { plotId: 'p3', centre: 'Toffo', quantityKg: 2_000, deliveryDate: '2027-05-01' },
        // A plot without TIF: counted at its delivery date's week (2027-04-12 is a Monday).
        { plotId: 'p4', centre: 'Toffo', quantityKg: 4_000, deliveryDate: '2027-04-14' },
      ],
    });
    expect(rows).toEqual([
      { centre: 'Allada', week: '2027-03-08', expectedKg: 15_500, contractedKg: 10_000 },
      { centre: 'Toffo', week: '2027-03-08', expectedKg: 2_000, contractedKg: 2_000 },
      { centre: 'Toffo', week: '2027-04-12', expectedKg: 0, contractedKg: 4_000 },
    ]);
  });

  it('keeps nothing outside the weeks asked', () => {
    const rows = forecastHarvest({
      from: '2026-12-09',
      weeks: 4,
      plots: [{ plotId: 'p1', centre: 'Allada', tifDate: '2026-10-10', estimatedKg: 1_000 }],
      contracts: [],
    });
    expect(rows).toEqual([]);
  });
});
