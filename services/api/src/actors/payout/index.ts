import type { ActorsArea } from '../area.js';

/** The payout area of the actors context (being built: issue 12). */
export const payoutArea: ActorsArea = {
  name: 'payout',
  migrations: {},
};
