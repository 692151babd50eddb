import { describe, expect, it } from 'vitest';
import { addPoint, distinctPoints, roundCoordinate } from './geometry.js';

describe('sites geometry', () => {
  it('rounds coordinates to 7 decimals, half away from zero, as written in decimal', () => {
    expect(roundCoordinate(6.123456789)).toBe(6.1234568);
    expect(roundCoordinate(2.39)).toBe(2.39);
    expect(roundCoordinate(1.00000005)).toBe(1.0000001);
    expect(roundCoordinate(-1.00000005)).toBe(-1.0000001);
    expect(roundCoordinate(-0.00000001)).toBe(0);
    expect(roundCoordinate(179.99999999)).toBe(180);
    expect(roundCoordinate(-90)).toBe(-90);
  });

  it('ignores a point already chosen (after rounding) and keeps the others in order', () => {
    const a = { latitude: 6.37, longitude: 2.39 };
    let state = addPoint([], a);
    expect(state).toEqual({ points: [a], duplicate: false });
    state = addPoint(state.points, { latitude: 6.3700000001, longitude: 2.39 });
    expect(state.duplicate).toBe(true);
    expect(state.points).toHaveLength(1);
    state = addPoint(state.points, { latitude: 6.38123456789, longitude: 2.4 });
    expect(state.points).toEqual([a, { latitude: 6.3812346, longitude: 2.4 }]);
  });

  it('counts distinct points after rounding', () => {
    expect(
      distinctPoints([
        { latitude: 1, longitude: 1 },
        { latitude: 1.00000001, longitude: 1 },
        { latitude: 2, longitude: 1 },
      ]),
    ).toBe(2);
  });
});
