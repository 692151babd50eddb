import type { ActorsArea } from '../area.js';

/** The carriers area of the actors context (being built: issue 12). */
export const carriersArea: ActorsArea = {
  name: 'carriers',
  migrations: {},
};
