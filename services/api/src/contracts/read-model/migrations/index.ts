import type { MigrationSet } from '@filiere/platform';
import * as readTables from './20261125_0800_contract_read_tables.js';

/** The contracts' read tables (block 0800–0819). */
export const contractReadMigrations: MigrationSet = {
  '20261125_0800_contract_read_tables': readTables,
};
