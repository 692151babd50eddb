import type { MigrationSet } from '@filiere/platform';
import * as requestIds from './20261126_0200_request_ids.js';

/** The requests' write side (block 20261126_0200–0209). */
export const requestWriteMigrations: MigrationSet = {
  '20261126_0200_request_ids': requestIds,
};
