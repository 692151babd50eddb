export { LocationCascade, type LocationCascadeProps } from './components/LocationCascade.js';
export {
  emptyLocation,
  locationFieldNames,
  locationShape,
  LOCATION_LEVELS,
  type LocationCodes,
  type LocationFieldNames,
  type LocationLevel,
} from './model/cascade.js';
export {
  arrondissementsQuery,
  communesQuery,
  departmentsQuery,
  locationKeys,
  useVillageChain,
  villageQuery,
  villagesQuery,
  type Arrondissement,
  type Commune,
  type Department,
  type Village,
  type VillageChain,
} from './api/locations.js';
