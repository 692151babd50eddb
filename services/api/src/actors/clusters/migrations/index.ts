import type { MigrationSet } from '@filiere/platform';
import * as clusterSettings from './20261125_0640_cluster_settings.js';

/** Block 0640–0649 (actors/index.ts lists each area's block). */
export const clustersMigrations: MigrationSet = {
  '20261125_0640_cluster_settings': clusterSettings,
};
