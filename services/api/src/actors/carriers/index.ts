import type { ActorsArea } from '../area.js';
import { CARRIER_PUSHES } from '../cooperatives/pushes.js';
import { carriersDemoStep } from './demo/carriers.js';
import * as carriers from './migrations/20261125_0620_carriers.js';

/** The carriers area of the actors context: transporteurs (ROLE_CARRIER users) and vehicles. */
export const carriersArea: ActorsArea = {
  name: 'carriers',
  migrations: { '20261125_0620_carriers': carriers },
  pushes: CARRIER_PUSHES,
  demo: [carriersDemoStep],
  http: async () => (await import('./http/index.js')).registerCarriers,
};
