import type { ActorsArea } from '../area.js';

/** The cooperatives area of the actors context (being built: issue 12). */
export const cooperativesArea: ActorsArea = {
  name: 'cooperatives',
  migrations: {},
};
