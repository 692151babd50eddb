import { describe, expect, it } from 'vitest';
import { placeSchema, toSiteInput, zoneSchema } from './forms.js';

describe('sites forms', () => {
  it('a place needs its name, address and a point; coordinates are rounded to 7 decimals', () => {
    const empty = placeSchema.safeParse({ label: ' ', address: '' });
    expect(empty.success).toBe(false);
    const messages = Object.fromEntries(
      empty.error!.issues.map((i) => [String(i.path[0]), i.message]),
    );
    expect(messages).toEqual({
      label: 'validation:required',
      address: 'validation:required',
      latitude: 'places:errors.pickOnMap',
      longitude: 'places:errors.pickOnMap',
    });
    expect(
      toSiteInput({
        label: 'Magasin',
        address: '6FR499CQ+2X',
        latitude: 6.123456789,
        longitude: 2.39,
      }),
    ).toEqual({ label: 'Magasin', address: '6FR499CQ+2X', latitude: 6.1234568, longitude: 2.39 });
  });

  it('a zone needs a name and at least 3 distinct points', () => {
    const two = zoneSchema.safeParse({
      name: 'Zè',
      coordinates: [
        { latitude: 1, longitude: 1 },
        { latitude: 1, longitude: 1 },
        { latitude: 2, longitude: 1 },
      ],
    });
    expect(two.error?.issues[0]?.message).toBe('places:errors.points');
    expect(
      zoneSchema.safeParse({
        name: 'Zè',
        coordinates: [
          { latitude: 1, longitude: 1 },
          { latitude: 2, longitude: 1 },
          { latitude: 2, longitude: 2 },
        ],
      }).success,
    ).toBe(true);
  });
});
