import { ValidationError } from '@filiere/platform';
import type { Kysely } from 'kysely';
import {
  LOCATION_LEVELS,
  placesOf,
  type LocationCodes,
  type LocationLevel,
  type VillageChain,
} from './places.js';
import type { LocationsTables } from './tables.js';

export const NOT_FOUND: Record<LocationLevel, string> = {
  department: 'Département introuvable',
  commune: 'Commune introuvable',
  arrondissement: 'Arrondissement introuvable',
  village: 'Village introuvable',
};

const SUBJECT: Record<LocationLevel, string> = {
  department: 'Ce département',
  commune: 'Cette commune',
  arrondissement: 'Cet arrondissement',
  village: 'Ce village',
};
const CHOSEN: Record<LocationLevel, string> = {
  department: 'le département choisi',
  commune: 'la commune choisie',
  arrondissement: "l'arrondissement choisi",
  village: 'le village choisi',
};

/** What a chain check finds: the chain down to the deepest code given, or the wrong field. */
export type ChainCheck =
  { ok: true; chain: Partial<VillageChain> } | { ok: false; field: LocationLevel; message: string };

/**
 * Checks that the codes given (a form's département, commune, arrondissement, village; ''
 * or absent = not given) name existing places, each inside the nearest level given above it.
 * Top down, so the first wrong level is the one named: an unknown code gives
 * 'Commune introuvable' (…), a place outside its parent "Cette commune n'est pas dans le
 * département choisi" (…). Which levels are required is the caller's schema's business.
 */
export async function checkLocationChain<DB extends LocationsTables>(
  db: Kysely<DB>,
  codes: LocationCodes,
): Promise<ChainCheck> {
  const places = placesOf(db);
  let chain: Partial<VillageChain> = {};
  let above: LocationLevel | undefined;
  for (const level of LOCATION_LEVELS) {
    const code = codes[level]?.trim();
    if (!code) continue;
    const found: Partial<VillageChain> | undefined =
      level === 'department'
        ? await places.department(code).then((department) => department && { department })
        : level === 'commune'
          ? await places.commune(code)
          : level === 'arrondissement'
            ? await places.arrondissement(code)
            : await places.village(code);
    if (!found) return { ok: false, field: level, message: NOT_FOUND[level] };
    if (above && found[above]?.code !== codes[above]?.trim()) {
      return {
        ok: false,
        field: level,
        message: `${SUBJECT[level]} n'est pas dans ${CHOSEN[above]}`,
      };
    }
    chain = found;
    above = level;
  }
  return { ok: true, chain };
}

/**
 * `checkLocationChain`, throwing a 400 (ValidationError) whose `fields` name the wrong level
 * under the caller's field path (`paths.commune` …, default the level's name) and whose
 * message is 'Localité invalide : <the field's message>'. Returns the chain.
 */
export async function assertLocationChain<DB extends LocationsTables>(
  db: Kysely<DB>,
  codes: LocationCodes,
  paths: Partial<Record<LocationLevel, string>> = {},
): Promise<Partial<VillageChain>> {
  const check = await checkLocationChain(db, codes);
  if (check.ok) return check.chain;
  throw new ValidationError(`Localité invalide : ${lowerFirst(check.message)}`, {
    fields: { [paths[check.field] ?? check.field]: check.message },
  });
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
