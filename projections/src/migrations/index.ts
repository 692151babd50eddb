import type { MigrationSet } from '@filiere/platform';
import * as checkpoints from './20261121_0200_projection_checkpoints.js';

export const projectionMigrations: MigrationSet = {
  '20261121_0200_projection_checkpoints': checkpoints,
};
