import type { ActorsArea } from '../area.js';

/** The suppliers area of the actors context (being built: issue 12). */
export const suppliersArea: ActorsArea = {
  name: 'suppliers',
  migrations: {},
};
