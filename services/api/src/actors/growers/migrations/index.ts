import type { MigrationSet } from '@filiere/platform';
import * as growers from './20261125_0610_growers.js';
import * as activePages from './20261125_0611_growers_active_pages.js';

/** The growers area's migrations (block 0610–0619). */
export const growersMigrations: MigrationSet = {
  '20261125_0610_growers': growers,
  '20261125_0611_growers_active_pages': activePages,
};
