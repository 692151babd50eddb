import type { MigrationSet } from '@filiere/platform';
import * as seasonRequests from './20261126_0210_season_requests.js';

/** The requests' read tables (block 20261126_0210–0219). */
export const requestReadMigrations: MigrationSet = {
  '20261126_0210_season_requests': seasonRequests,
};
