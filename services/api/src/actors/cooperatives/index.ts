import type { ActorsArea } from '../area.js';
import { COOPERATIVE_PUSHES } from './pushes.js';
import { cooperativesDemoStep } from './demo/cooperatives.js';
import * as cooperatives from './migrations/20261125_0600_cooperatives.js';

/**
 * The cooperatives area of the actors context: organisations paysannes (an identity
 * organisation of type COOPERATIVE, its representative user, and the `cooperatives` row).
 */
export const cooperativesArea: ActorsArea = {
  name: 'cooperatives',
  migrations: { '20261125_0600_cooperatives': cooperatives },
  pushes: COOPERATIVE_PUSHES,
  demo: [cooperativesDemoStep],
  http: async () => (await import('./http/index.js')).registerCooperatives,
};
