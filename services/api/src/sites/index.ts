import type { ContextModule } from '../kernel/module.js';
import { sitesEvents, sitesStream } from './catalogue.js';
import { sitesDemoStep } from './demo/sites.js';
import * as sites from './migrations/20261126_0400_sites.js';

/**
 * Sites: an industrial's stores ('Magasins'), places and coverage zones, set on a map
 * (migration block 20261126_04NN). Plain tables with an audit stream per owner (no money
 * moves, no projector); the place form is the store form's map, so places are stores.
 */
export const sitesModule: ContextModule = {
  name: 'sites',
  events: sitesEvents,
  streams: [sitesStream],
  migrations: { '20261126_0400_sites': sites },
  projectors: [],
  demo: [sitesDemoStep],
  http: async () => (await import('./http/index.js')).registerSites,
};

// The public face.
export type { SitesTables } from './tables.js';
export { mapContentSecurity, mapSettings } from './settings.js';
export { sitesStreamId } from './catalogue.js';
