import { z } from 'zod';
import { storableString } from '@filiere/platform';
import {
  MAX_ZONE_POINTS,
  MIN_ZONE_POINTS,
  distinctPoints,
  roundCoordinate,
} from './domain/geometry.js';

/** The sites' French messages (spec seasons §2.10–§2.13, §8). */
export const SITE_MESSAGES = {
  required: 'Ce champ est obligatoire',
  invalid: 'Entré non valide',
  tooLong: (max: number) => `${max} caractères au plus`,
  latitude: 'La latitude est un nombre entre -90 et 90',
  longitude: 'La longitude est un nombre entre -180 et 180',
  points: `Choisissez au moins ${MIN_ZONE_POINTS} points distincts sur la carte`,
  tooManyPoints: `Une zone a au plus ${MAX_ZONE_POINTS} points`,
  siteNotFound: 'Magasin introuvable',
  zoneNotFound: 'Zone de couverture introuvable',
  notYours: 'Vous ne pouvez gérer que vos propres magasins et zones',
  tooManySites: (max: number) =>
    `Vous avez déjà ${max} magasins : supprimez-en un avant d’en ajouter`,
  tooManyZones: (max: number) =>
    `Vous avez déjà ${max} zones de couverture : supprimez-en une avant d’en ajouter`,
  siteDeleted: 'Magasin supprimé avec succès',
  zoneDeleted: 'Zone de couverture supprimée avec succès',
  nothingToChange: 'Aucun champ à modifier',
} as const;

const M = SITE_MESSAGES;
const requiredError = (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null || issue.input === '' ? M.required : M.invalid;

const text = (max: number) =>
  storableString({ error: requiredError }).trim().min(1, M.required).max(max, M.tooLong(max));

/** A coordinate: a number (or its text) in range, rounded to 7 decimals (spec §9). */
const coordinate = (min: number, max: number, message: string) =>
  z.coerce
    .number({ error: (issue) => (issue.input === undefined ? M.required : message) })
    .refine(Number.isFinite, message)
    .min(min, message)
    .max(max, message)
    .transform(roundCoordinate);
const latitude = coordinate(-90, 90, M.latitude);
const longitude = coordinate(-180, 180, M.longitude);

export const siteBody = z.object({
  label: text(150),
  address: text(300),
  latitude,
  longitude,
});
export type SiteBody = z.infer<typeof siteBody>;
export const siteUpdateBody = siteBody
  .partial()
  .refine((b) => Object.values(b).some((v) => v !== undefined), M.nothingToChange);
export type SiteUpdateBody = z.infer<typeof siteUpdateBody>;

export const pointSchema = z.object({ latitude, longitude });
const points = z
  .array(pointSchema, { error: M.points })
  .max(MAX_ZONE_POINTS, M.tooManyPoints)
  .refine((p) => distinctPoints(p) >= MIN_ZONE_POINTS, M.points)
  // A point repeated is kept once (the form ignores it too).
  .transform((p) =>
    p.filter(
      (point, i) =>
        p.findIndex((o) => o.latitude === point.latitude && o.longitude === point.longitude) === i,
    ),
  );

export const zoneBody = z.object({ name: text(150), coordinates: points });
export type ZoneBody = z.infer<typeof zoneBody>;
export const zoneUpdateBody = zoneBody
  .partial()
  .refine((b) => Object.values(b).some((v) => v !== undefined), M.nothingToChange);
export type ZoneUpdateBody = z.infer<typeof zoneUpdateBody>;

export const idParams = z.object({ id: z.uuid(M.invalid) });

export const listQuery = z.object({
  page: z.coerce.number(M.invalid).int(M.invalid).min(1, M.invalid).default(1),
  limit: z.coerce
    .number(M.invalid)
    .int(M.invalid)
    .min(1, M.invalid)
    .max(100, M.invalid)
    .default(10),
  q: storableString().trim().max(100, M.tooLong(100)).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;
export const zoneListQuery = listQuery.extend({
  /** Super admin: one user's zones; others: always their own. */
  userId: z.uuid(M.invalid).optional(),
});
export type ZoneListQuery = z.infer<typeof zoneListQuery>;

export const siteSchema = z.object({
  id: z.string(),
  userId: z.string(),
  label: z.string(),
  address: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SiteDto = z.infer<typeof siteSchema>;

export const zoneSchema = z.object({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  coordinates: z.array(z.object({ latitude: z.number(), longitude: z.number() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ZoneDto = z.infer<typeof zoneSchema>;

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), count: z.number() });

export const messageAnswer = z.object({ message: z.string() });

export const mapSettingsSchema = z.object({
  /** A style JSON URL, a raster tile template with {z}/{x}/{y}, or 'offline'. */
  styleUrl: z.string(),
  /** A Nominatim-compatible base URL, or 'offline'. */
  geocoderUrl: z.string(),
  center: z.object({ latitude: z.number(), longitude: z.number() }),
  zoom: z.number(),
});

export const addressQuery = z.object({
  q: storableString().trim().min(2, M.invalid).max(100, M.tooLong(100)),
});
export const addressAnswer = z.object({
  data: z.array(z.object({ label: z.string(), code: z.string() })),
});
