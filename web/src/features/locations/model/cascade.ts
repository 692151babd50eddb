import { z } from 'zod';
import { msg } from '../../../shared/validation/rules.js';

/** The four levels of the cascade, top down. */
export const LOCATION_LEVELS = ['department', 'commune', 'arrondissement', 'village'] as const;
export type LocationLevel = (typeof LOCATION_LEVELS)[number];

/** The form field (a dotted react-hook-form path) holding each level's code. */
export type LocationFieldNames = Record<LocationLevel, string>;

/** The codes a cascade holds; '' when not chosen. */
export type LocationCodes = Record<LocationLevel, string>;

export const emptyLocation: LocationCodes = {
  department: '',
  commune: '',
  arrondissement: '',
  village: '',
};

/**
 * The field names of a cascade: `names` as given, else `prefix.department`, … (a nested
 * object), else `department`, `commune`, `arrondissement`, `village`.
 */
export function locationFieldNames(
  prefix?: string,
  names?: Partial<LocationFieldNames>,
): LocationFieldNames {
  const at = (level: LocationLevel) => names?.[level] ?? (prefix ? `${prefix}.${level}` : level);
  return {
    department: at('department'),
    commune: at('commune'),
    arrondissement: at('arrondissement'),
    village: at('village'),
  };
}

/** The levels below `level`, cleared when it changes. */
export function levelsBelow(level: LocationLevel): LocationLevel[] {
  return LOCATION_LEVELS.slice(LOCATION_LEVELS.indexOf(level) + 1);
}

/** A level can be chosen once every level above it is. */
export function levelEnabled(level: LocationLevel, codes: LocationCodes): boolean {
  return LOCATION_LEVELS.slice(0, LOCATION_LEVELS.indexOf(level)).every((above) => !!codes[above]);
}

/** Select options from a level's list: value = code, label = name as in the data. */
export function toOptions(items: readonly { code: string; name: string }[] | undefined) {
  return (items ?? []).map((item) => ({ value: item.code, label: item.name }));
}

const code = (required: boolean) =>
  required ? z.string(msg.required).trim().min(1, msg.required) : z.string().trim();

/**
 * The zod shape of the four codes, to spread into a form's schema
 * (`z.object({ ...locationShape(true), … })`, or `address: z.object(locationShape(true))`
 * with `prefix="address"`). Required: each empty code is 'Ce champ est obligatoire'. The
 * server checks that the chain is consistent (locations' `checkLocationChain`).
 */
export function locationShape(required: boolean) {
  return {
    department: code(required),
    commune: code(required),
    arrondissement: code(required),
    village: code(required),
  };
}
