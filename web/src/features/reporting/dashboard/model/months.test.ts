import { describe, expect, it } from 'vitest';
import { MONTHS_FR, seriesYears, yearBars } from './months.js';

describe('chart months', () => {
  it('are Jan to Déc', () => {
    expect(MONTHS_FR).toEqual([
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
    ]);
  });
  it("put each point in its month of the chosen year, other years' points left out", () => {
    const bars = yearBars(
      [
        { month: '2026-01', tonnes: 2.5 },
        { month: '2026-12', tonnes: 4 },
        { month: '2026-12', tonnes: 1 },
        { month: '2025-03', tonnes: 9 },
      ],
      (p) => p.tonnes,
      2026,
    );
    expect(bars).toHaveLength(12);
    expect(bars[0]).toEqual({ month: 'Jan', key: '2026-01', value: 2.5 });
    expect(bars[2]!.value).toBe(0);
    expect(bars[11]).toEqual({ month: 'Déc', key: '2026-12', value: 5 });
  });
  it('leave the months after the range at 0', () => {
    const points = [
      { month: '2026-10', amount: 10 },
      { month: '2026-11', amount: 20 },
      { month: '2026-12', amount: 20 },
    ];
    const bars = yearBars(points, (p) => p.amount, 2026, MONTHS_FR, '2026-11-23');
    expect(bars.map((b) => b.value).slice(9)).toEqual([10, 20, 0]);
  });
  it("offer the series' years, newest first, with the current one", () => {
    expect(seriesYears([{ month: '2024-05' }, { month: '2026-01' }], 2026)).toEqual([2026, 2024]);
    expect(seriesYears([], 2026)).toEqual([2026]);
  });
});
