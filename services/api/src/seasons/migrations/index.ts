import type { MigrationSet } from '@filiere/platform';
import * as seasonIds from './20261125_0700_season_ids.js';

/** The seasons' write side (block 0700–0709). */
export const seasonWriteMigrations: MigrationSet = {
  '20261125_0700_season_ids': seasonIds,
};
