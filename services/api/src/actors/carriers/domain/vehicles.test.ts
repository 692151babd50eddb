import { describe, expect, it } from 'vitest';
import { CAR_TYPES, DEFAULT_CAPACITY_KG, repeatedRegistration, vehiclesOf } from './vehicles.js';

describe('vehicles', () => {
  it('given no capacity, then the type’s default: 1000 Kg, the TERCEL 2000 Kg', () => {
    expect(CAR_TYPES.filter((t) => DEFAULT_CAPACITY_KG[t] !== 1000)).toEqual(['TERCEL']);
    expect(DEFAULT_CAPACITY_KG.TERCEL).toBe(2000);
    const [bachee, tercel, camion] = vehiclesOf([
      { carType: 'BACHEE', registration: 'ab 1234 rb' },
      { carType: 'TERCEL', registration: 'CD 5678 RB' },
      { carType: 'CAMION', registration: 'EF 9012 RB', capacity: 12_000, emptyWeight: 6_000 },
    ]);
    expect(bachee).toEqual({
      carType: 'BACHEE',
      registration: 'AB 1234 RB',
      emptyWeight: null,
      capacity: 1000,
    });
    expect(tercel!.capacity).toBe(2000);
    expect(camion).toMatchObject({ capacity: 12_000, emptyWeight: 6_000 });
  });

  it('given two vehicles with one registration (spacing and case aside), then the second is named', () => {
    const vehicles = vehiclesOf([
      { carType: 'BACHEE', registration: 'AB 1234 RB' },
      { carType: 'TRICYCLE', registration: 'XY 1 RB' },
      { carType: 'CAMION', registration: ' ab  1234 rb ' },
    ]);
    expect(repeatedRegistration(vehicles)).toBe(2);
    expect(repeatedRegistration(vehicles.slice(0, 2))).toBe(-1);
  });
});
