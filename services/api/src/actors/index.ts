import { mergeMigrations } from '@filiere/platform';
import type { ContextModule, HttpRegistration } from '../kernel/module.js';
import type { ActorsArea } from './area.js';
import { carriersArea } from './carriers/index.js';
import { clustersArea } from './clusters/index.js';
import { cooperativesArea } from './cooperatives/index.js';
import { growersArea } from './growers/index.js';
import { payoutArea } from './payout/index.js';
import { suppliersArea } from './suppliers/index.js';

/**
 * The areas, in the order their demo steps run (clusters first: the others are placed in
 * them). Migration blocks (names `20261125_06NN_…`): cooperatives 0600, growers 0610,
 * carriers 0620, suppliers 0630, clusters 0640, payout 0650.
 */
const areas: readonly ActorsArea[] = [
  clustersArea,
  cooperativesArea,
  growersArea,
  carriersArea,
  suppliersArea,
  payoutArea,
];

const registerActors: HttpRegistration = async (app) => {
  for (const area of areas) {
    if (area.http) await (await area.http())(app);
  }
};

/**
 * The actors of the chain: growers and their plots, carriers and vehicles, cooperatives,
 * input suppliers and their fertilizers, clusters' configuration, and the four-eyes
 * payout-account requests. Each actor who signs in or gets paid is a user of identity
 * (created through identity's public face); the actors' own tables hold the rest.
 */
export const actorsModule: ContextModule = {
  name: 'actors',
  events: areas.flatMap((a) => a.events ?? []),
  streams: areas.flatMap((a) => a.streams ?? []),
  migrations: mergeMigrations(...areas.map((a) => a.migrations)),
  projectors: [],
  demo: areas.flatMap((a) => a.demo ?? []),
  pushes: areas.flatMap((a) => a.pushes ?? []),
  http: async () => registerActors,
};

// The public face: what other contexts may use.
export type { ActorsTables } from './tables.js';
/** The growers' read reach (404 unknown, 403 out of reach), for the contracts' grower tab. */
export { growerUserInReach, requireReadableGrower } from './growers/service.js';
export { requireReadableCarrier } from './carriers/service.js';
export { ACTOR_STAFF } from './cooperatives/domain/reach.js';
export { GROWER_ROUTE_ROLES } from './growers/domain/reach.js';
export { growerContractItem, growerContractsQuery } from './growers/schemas.js';
