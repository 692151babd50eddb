import type { MigrationSet } from '@filiere/platform';
import * as readTables from './20261121_0250_wallet_read_tables.js';
import * as supplyOutcome from './20261124_0251_wallet_supply_outcome.js';
import * as holdLabels from './20261128_0400_wallet_hold_labels.js';
import * as noTrigram from './20261130_0252_wallet_transactions_no_trigram.js';
import * as movementReferences from './20261206_0253_wallet_movement_references.js';
import * as holds from './20261206_0254_wallet_holds.js';

/** The wallet's read tables (block 025x–029x). */
export const walletReadMigrations: MigrationSet = {
  '20261121_0250_wallet_read_tables': readTables,
  '20261124_0251_wallet_supply_outcome': supplyOutcome,
  '20261128_0400_wallet_hold_labels': holdLabels,
  '20261130_0252_wallet_transactions_no_trigram': noTrigram,
  '20261206_0253_wallet_movement_references': movementReferences,
  '20261206_0254_wallet_holds': holds,
};
