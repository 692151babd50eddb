import type { MigrationSet } from '@filiere/platform';
import * as readTables from './20261125_0800_contract_read_tables.js';
import * as runs from './20261126_0500_contract_runs.js';

/** The contracts' read tables (block 0800–0819) and the runs' tables (block 20261126_05NN). */
export const contractReadMigrations: MigrationSet = {
  '20261125_0800_contract_read_tables': readTables,
  '20261126_0500_contract_runs': runs,
};
