import type { Kysely } from 'kysely';
import type { ContextModule } from '../kernel/module.js';
import { locationsMigrations } from './migrations/index.js';
import { placesOf, type VillageChain } from './places.js';
import type { LocationsTables } from './tables.js';

/**
 * Benin's territorial reference data: 12 departments, 77 communes, 546 arrondissements and
 * 5,304 villages (data/benin-territorial.json, MIT, bj-decoupage-territorial), loaded by a
 * migration into four read-only tables; the spec's location calls under /api (http/).
 * No events: the data is not the product's to change.
 */
export const locationsModule: ContextModule = {
  name: 'locations',
  events: [],
  migrations: locationsMigrations,
  projectors: [],
  http: async () => (await import('./http/index.js')).registerLocations,
};

// The public face: what other contexts may use.
/** A village and the chain above it ({department, commune, arrondissement, village}), or undefined. */
export function resolveVillage<DB extends LocationsTables>(
  db: Kysely<DB>,
  villageCode: string,
): Promise<VillageChain | undefined> {
  return placesOf(db).village(villageCode);
}
export { assertLocationChain, checkLocationChain, type ChainCheck } from './chain.js';
export {
  LOCATION_LEVELS,
  placesOf,
  type Places,
  type ArrondissementChain,
  type CommuneChain,
  type LocationCodes,
  type LocationLevel,
  type Place,
  type VillageChain,
} from './places.js';
export type { LocationsTables } from './tables.js';
