import type { ActorsArea } from '../area.js';

/** The growers area of the actors context (being built: issue 12). */
export const growersArea: ActorsArea = {
  name: 'growers',
  migrations: {},
};
