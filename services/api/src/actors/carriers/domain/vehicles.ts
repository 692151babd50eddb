/**
 * Vehicle types and their default capacities in Kg (spec §3, §9): 1000 Kg, except the TERCEL
 * 2000 Kg. A registration is compared upper case with single spaces.
 */
export const CAR_TYPES = [
  'BACHEE',
  'TERCEL',
  'VOITURE_4_ROUES',
  'CAMIONNETTE',
  'TRICYCLE',
  'PICK_UP',
  'CAMION',
] as const;
export type CarType = (typeof CAR_TYPES)[number];

export const DEFAULT_CAPACITY_KG: Record<CarType, number> = {
  BACHEE: 1000,
  TERCEL: 2000,
  VOITURE_4_ROUES: 1000,
  CAMIONNETTE: 1000,
  TRICYCLE: 1000,
  PICK_UP: 1000,
  CAMION: 1000,
};

export const normalizeRegistration = (registration: string) =>
  registration.trim().replace(/\s+/g, ' ').toUpperCase();

export interface VehicleInput {
  carType: CarType;
  registration: string;
  emptyWeight?: number | null | undefined;
  capacity?: number | null | undefined;
}

export interface Vehicle {
  carType: CarType;
  registration: string;
  emptyWeight: number | null;
  capacity: number;
}

/** The vehicles as stored: registrations normalised, capacity defaulted by type. */
export function vehiclesOf(inputs: readonly VehicleInput[]): Vehicle[] {
  return inputs.map((v) => ({
    carType: v.carType,
    registration: normalizeRegistration(v.registration),
    emptyWeight: v.emptyWeight ?? null,
    capacity: v.capacity ?? DEFAULT_CAPACITY_KG[v.carType],
  }));
}

/** The index of the first vehicle whose registration repeats an earlier one, or -1. */
export function repeatedRegistration(vehicles: readonly Vehicle[]): number {
  const seen = new Set<string>();
  for (const [i, v] of vehicles.entries()) {
    if (seen.has(v.registration)) return i;
    seen.add(v.registration);
  }
  return -1;
}

/** The types as the screens and the download name them. */
export const CAR_TYPE_LABELS: Record<CarType, string> = {
  BACHEE: 'Bâchée',
  TERCEL: 'Tercel',
  VOITURE_4_ROUES: 'Voiture 4 roues',
  CAMIONNETTE: 'Camionnette',
  TRICYCLE: 'Tricycle',
  PICK_UP: 'Pick-up',
  CAMION: 'Camion',
};
