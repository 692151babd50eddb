/**
 * The sites' geometry rules, as the API applies them (services/api/src/sites/domain/
 * geometry.ts; the web cannot import the API's source): coordinates rounded to 7 decimals,
 * a polygon of at least 3 distinct points, a point already chosen ignored.
 */
export interface Point {
  latitude: number;
  longitude: number;
}

/** Decimals kept on a coordinate (about 1 cm). */
export const COORDINATE_DECIMALS = 7;
/** The fewest distinct points of a coverage zone. */
export const MIN_ZONE_POINTS = 3;
/** The most points of a coverage zone. */
export const MAX_ZONE_POINTS = 100;
/** The most stores (sites) one user keeps. */
export const MAX_SITES_PER_USER = 50;
/** The most coverage zones one user keeps. */
export const MAX_ZONES_PER_USER = 50;
/** The default map centre (near Cotonou) and zoom. */
export const DEFAULT_CENTER: Point = { latitude: 6.37, longitude: 2.39 };
export const DEFAULT_ZOOM = 12;

/**
 * Rounds a coordinate to 7 decimals, half away from zero, exactly as written in decimal:
 * the number's shortest decimal text is rounded, not its binary value (1.00000005 → 1.0000001).
 */
export function roundCoordinate(value: number): number {
  if (!Number.isFinite(value)) return value;
  const sign = value < 0 ? -1 : 1;
  // 12 decimals: a latitude or longitude's decimal form, far below the 7 kept.
  const text = Math.abs(value).toFixed(12);
  const [whole, fraction = ''] = text.split('.');
  const kept = fraction.slice(0, COORDINATE_DECIMALS);
  const next = Number(fraction[COORDINATE_DECIMALS] ?? '0');
  let scaled = BigInt(`${whole}${kept.padEnd(COORDINATE_DECIMALS, '0')}`);
  if (next >= 5) scaled += 1n;
  const digits = scaled.toString().padStart(COORDINATE_DECIMALS + 1, '0');
  const rounded = Number(
    `${digits.slice(0, -COORDINATE_DECIMALS)}.${digits.slice(-COORDINATE_DECIMALS)}`,
  );
  return rounded === 0 ? 0 : sign * rounded;
}

export const roundPoint = (point: Point): Point => ({
  latitude: roundCoordinate(point.latitude),
  longitude: roundCoordinate(point.longitude),
});

/** Same point once rounded (the spec's duplicate). */
export const samePoint = (a: Point, b: Point) => {
  const x = roundPoint(a);
  const y = roundPoint(b);
  return x.latitude === y.latitude && x.longitude === y.longitude;
};

/**
 * Adds a clicked point to a polygon: rounded; a point already chosen is ignored
 * (`duplicate: true`, the caller shows 'Ce point a deja été choisit').
 */
export function addPoint(
  points: readonly Point[],
  point: Point,
): { points: Point[]; duplicate: boolean } {
  const rounded = roundPoint(point);
  if (points.some((p) => samePoint(p, rounded))) return { points: [...points], duplicate: true };
  return { points: [...points, rounded], duplicate: false };
}

/** How many distinct points (after rounding) a polygon has. */
export const distinctPoints = (points: readonly Point[]) =>
  new Set(
    points.map((p) => {
      const r = roundPoint(p);
      return `${r.latitude},${r.longitude}`;
    }),
  ).size;
