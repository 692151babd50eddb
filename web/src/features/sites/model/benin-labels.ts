import type { Point } from '@filiere/api/sites/geometry';

/** benin-places.json: made by scripts/src/maps/benin-places.ts from the reference data. */
export interface BeninPlaces {
  departments: { code: string; name: string; latitude: number; longitude: number }[];
  communes: {
    code: string;
    name: string;
    departmentCode: string;
    latitude: number;
    longitude: number;
  }[];
}

/** A name drawn on the offline map. */
export interface PlaceLabel {
  kind: 'department' | 'commune';
  code: string;
  /** As the locations reference data spells it. */
  name: string;
  point: Point;
}

/** From this zoom the communes are named instead of the departments (one level at a time). */
export const COMMUNE_LABELS_FROM_ZOOM = 9;

export const labelKindAt = (zoom: number): PlaceLabel['kind'] =>
  zoom >= COMMUNE_LABELS_FROM_ZOOM ? 'commune' : 'department';

export const labelsOf = (places: BeninPlaces): PlaceLabel[] => [
  ...places.departments.map((d) => ({
    kind: 'department' as const,
    code: d.code,
    name: d.name,
    point: { latitude: d.latitude, longitude: d.longitude },
  })),
  ...places.communes.map((c) => ({
    kind: 'commune' as const,
    code: c.code,
    name: c.name,
    point: { latitude: c.latitude, longitude: c.longitude },
  })),
];

/** The places' positions, loaded from the app's own files only when the offline map is drawn. */
export const loadBeninPlaces = async (): Promise<BeninPlaces> =>
  (await import('./benin-places.json')).default;

/**
 * Where a suggestion of the reference data lies, as near as the bundled positions tell: its
 * commune's position ('VILLAGE, ARRONDISSEMENT, COMMUNE, DÉPARTEMENT'), or null.
 */
export function communePointOf(places: BeninPlaces, label: string): Point | null {
  const parts = label.split(',').map((p) => p.trim());
  if (parts.length < 2) return null;
  const [commune, department] = parts.slice(-2);
  const code = places.departments.find((d) => d.name === department)?.code;
  const found = places.communes.find((c) => c.name === commune && c.departmentCode === code);
  return found ? { latitude: found.latitude, longitude: found.longitude } : null;
}
