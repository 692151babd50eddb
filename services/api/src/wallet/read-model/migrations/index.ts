import type { MigrationSet } from '@filiere/platform';
import * as readTables from './20261121_0250_wallet_read_tables.js';

/** The wallet's read tables (block 025x–029x). */
export const walletReadMigrations: MigrationSet = {
  '20261121_0250_wallet_read_tables': readTables,
};
