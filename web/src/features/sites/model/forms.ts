import { z } from 'zod';
import type { ApiError } from '../../../shared/api/api-error.js';
import type { Site, SiteInput, Zone, ZoneInput } from '../api/sites.js';
import {
  MIN_ZONE_POINTS,
  distinctPoints,
  roundCoordinate,
  type Point,
} from '@filiere/api/sites/geometry';

/** The forms' modes (spec §2.12, §2.13): ADD a new place or zone, MOD an existing one. */
export type FormMode = 'ADD' | 'MOD';

const required = z.string().trim().min(1, 'validation:required');
const coordinate = (min: number, max: number, message: string) =>
  z
    .number({ error: 'places:errors.pickOnMap' })
    .min(min, message)
    .max(max, message)
    .transform(roundCoordinate);

/** The place form: 'Nom de l'emplacement' and 'Adresse' required, a point picked. */
export const placeSchema = z.object({
  label: required.max(150, 'places:errors.tooLong'),
  address: required.max(300, 'places:errors.tooLong'),
  latitude: coordinate(-90, 90, 'places:errors.latitude'),
  longitude: coordinate(-180, 180, 'places:errors.longitude'),
});
export type PlaceValues = { label: string; address: string; latitude?: number; longitude?: number };

export const placeValuesOf = (site?: Site | null): PlaceValues =>
  site
    ? {
        label: site.label,
        address: site.address,
        latitude: site.latitude,
        longitude: site.longitude,
      }
    : { label: '', address: '' };

export const toSiteInput = (values: PlaceValues): SiteInput => placeSchema.parse(values);

/** The zone form: 'Nom de la zone' required, at least 3 distinct points. */
export const zoneSchema = z.object({
  name: required.max(150, 'places:errors.tooLong'),
  coordinates: z
    .array(z.object({ latitude: z.number(), longitude: z.number() }))
    .refine((p) => distinctPoints(p) >= MIN_ZONE_POINTS, 'places:errors.points'),
});
export type ZoneValues = { name: string; coordinates: Point[] };

export const zoneValuesOf = (zone?: Zone | null): ZoneValues =>
  zone ? { name: zone.name, coordinates: zone.coordinates } : { name: '', coordinates: [] };

export const toZoneInput = (values: ZoneValues): ZoneInput => zoneSchema.parse(values);

/** The form fields a 400 points at. */
export function serverFieldErrors<F extends string>(
  error: ApiError,
  fields: readonly F[],
): [F, string][] {
  return Object.entries(error.fields ?? {}).filter((e): e is [F, string] =>
    (fields as readonly string[]).includes(e[0]),
  );
}
