import type { MigrationSet } from '@filiere/platform';
import * as readTables from './20261125_0800_contract_read_tables.js';
import * as runs from './20261126_0500_contract_runs.js';
import * as runRecoveries from './20261206_0500_contract_run_recoveries.js';

/** The contracts' read tables (block 0800–0819) and the runs' tables (blocks 20261126_05NN, 20261206_05NN). */
export const contractReadMigrations: MigrationSet = {
  '20261125_0800_contract_read_tables': readTables,
  '20261126_0500_contract_runs': runs,
  '20261206_0500_contract_run_recoveries': runRecoveries,
};
