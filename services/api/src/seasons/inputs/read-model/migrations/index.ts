import type { MigrationSet } from '@filiere/platform';
import * as providers from './20261126_0110_season_input_providers.js';

/** The inputs area's read tables (block 20261126_0110–0119). */
export const inputReadMigrations: MigrationSet = {
  '20261126_0110_season_input_providers': providers,
};
