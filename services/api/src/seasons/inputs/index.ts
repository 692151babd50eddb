import type { SeasonsArea } from '../area.js';

/** Input providers assigned to an industrial's season link, each with a hold on the industrial's wallet (block 20261126_01NN). */
export const inputsArea: SeasonsArea = {
  name: 'season-inputs',
  migrations: {},
};
