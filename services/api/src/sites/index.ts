import type { ContextModule } from '../kernel/module.js';

/**
 * Sites: an industrial's stores ('Magasins'), places and coverage zones, set on a map
 * (migration block 20261126_04NN).
 */
export const sitesModule: ContextModule = {
  name: 'sites',
  events: [],
  migrations: {},
  projectors: [],
};

// The public face.
export type { SitesTables } from './tables.js';
