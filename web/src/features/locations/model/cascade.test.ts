import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  emptyLocation,
  levelEnabled,
  levelsBelow,
  locationFieldNames,
  locationShape,
  toOptions,
} from './cascade.js';

describe('location cascade model', () => {
  it('names the fields from names, a prefix, or the defaults', () => {
    expect(locationFieldNames()).toEqual({
      department: 'department',
      commune: 'commune',
      arrondissement: 'arrondissement',
      village: 'village',
    });
    expect(locationFieldNames('plot').village).toBe('plot.village');
    expect(locationFieldNames('plot', { commune: 'borough' })).toMatchObject({
      department: 'plot.department',
      commune: 'borough',
    });
  });

  it('clears the levels below the one changed, and enables a level once its parents are set', () => {
    expect(levelsBelow('department')).toEqual(['commune', 'arrondissement', 'village']);
    expect(levelsBelow('arrondissement')).toEqual(['village']);
    expect(levelsBelow('village')).toEqual([]);
    expect(levelEnabled('department', emptyLocation)).toBe(true);
    expect(levelEnabled('commune', emptyLocation)).toBe(false);
    const chosen = { ...emptyLocation, department: 'D03', commune: 'C021' };
    expect(levelEnabled('arrondissement', chosen)).toBe(true);
    expect(levelEnabled('village', chosen)).toBe(false);
  });

  it('maps items to options with the code as value and the name as label', () => {
    expect(toOptions([{ code: 'D03', name: 'ATLANTIQUE' }])).toEqual([
      { value: 'D03', label: 'ATLANTIQUE' },
    ]);
    expect(toOptions(undefined)).toEqual([]);
  });

  it('requires each code with the spec message when required, and accepts empty ones when not', () => {
    const required = z.object(locationShape(true)).safeParse(emptyLocation);
    expect(required.success).toBe(false);
    expect(required.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ['department', 'validation:required'],
      ['commune', 'validation:required'],
      ['arrondissement', 'validation:required'],
      ['village', 'validation:required'],
    ]);
    expect(z.object(locationShape(false)).safeParse(emptyLocation).success).toBe(true);
  });
});
