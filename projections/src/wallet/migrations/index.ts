import type { MigrationSet } from '@filiere/platform';

/** The wallet's read tables (block 025x–029x). */
export const walletReadMigrations: MigrationSet = {};
