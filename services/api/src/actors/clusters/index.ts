import type { ActorsArea } from '../area.js';

/** The clusters area of the actors context (being built: issue 12). */
export const clustersArea: ActorsArea = {
  name: 'clusters',
  migrations: {},
};
