import type { MigrationSet } from '@filiere/platform';
import * as readTables from './20261125_0710_season_read_tables.js';

/** The seasons' read tables (block 0710–0719). */
export const seasonReadMigrations: MigrationSet = {
  '20261125_0710_season_read_tables': readTables,
};
