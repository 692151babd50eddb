import type { SeasonsArea } from '../area.js';

/** Inputs delivered by grower code, paying the provider from the industrial's hold (block 20261126_03NN). */
export const deliveriesArea: SeasonsArea = {
  name: 'season-deliveries',
  migrations: {},
};
