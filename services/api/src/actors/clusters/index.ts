import type { ActorsArea } from '../area.js';
import { clusterEvents, clusterStream } from './catalogue.js';
import { clustersDemoStep } from './demo/clusters.js';
import { clustersMigrations } from './migrations/index.js';

/**
 * The clusters area of the actors context: 'Configurer mon cluster' (name, aggregator,
 * cooperatives and growers without cooperative moved in), the cluster's read-back and its
 * audit stream `cluster-<id>`. A cluster is NOT a season (decisions.md): season paths that
 * say "clusters" belong to the seasons context.
 */
export const clustersArea: ActorsArea = {
  name: 'clusters',
  migrations: clustersMigrations,
  events: clusterEvents,
  streams: [clusterStream],
  demo: [clustersDemoStep],
  http: async () => (await import('./http/index.js')).registerClusters,
};
