import type { SeasonsArea } from '../area.js';

/** Growers' requests in a season: INPUT, PINEAPLE, SOCIAL (block 20261126_02NN). */
export const requestsArea: SeasonsArea = {
  name: 'season-requests',
  migrations: {},
};
