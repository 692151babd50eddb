import type { SeasonsArea } from '../area.js';
import { deliveriesDemoStep } from './demo/deliveries.js';

/**
 * Inputs delivered by grower code, paying the provider from the industrial's hold and
 * opening the grower's input advance (block 20261126_03NN). It writes `InputDelivered` on
 * the request's stream (the requests' catalogue) with the wallets' and the debt's events,
 * and reads the requests' and the providers' tables: it has no table of its own.
 */
export const deliveriesArea: SeasonsArea = {
  name: 'season-deliveries',
  migrations: {},
  demo: [deliveriesDemoStep],
  http: async () => (await import('./http/index.js')).registerDeliveries,
};
