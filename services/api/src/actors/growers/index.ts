import type { ActorsArea } from '../area.js';
import { growerEvents, growerStream } from './catalogue.js';
import { growersDemoStep } from './demo/growers.js';
import { growersMigrations } from './migrations/index.js';
import { GROWER_PUSHES } from './pushes.js';

/**
 * The growers area of the actors context: growers (producteurs: an identity user with its
 * wallet, plus the `growers` row: reference, cluster, cooperative, address) and their plots
 * (parcelles), their audit stream `grower-<id>`, the list's live push, the .xlsx download,
 * and the spec's growers and plots routes (http/).
 */
export const growersArea: ActorsArea = {
  name: 'growers',
  migrations: growersMigrations,
  events: growerEvents,
  streams: [growerStream],
  pushes: GROWER_PUSHES,
  demo: [growersDemoStep],
  http: async () => (await import('./http/index.js')).registerGrowers,
};
