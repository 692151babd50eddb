import type { MigrationSet } from '@filiere/platform';
import * as walletJobs from './20261121_0400_wallet_jobs.js';
import * as walletExports from './20261121_0401_wallet_exports.js';
import * as claimTokens from './20261124_0402_claim_tokens.js';
import * as withdrawalRequestedIndex from './20261129_0400_withdrawal_requested_index.js';
import * as supplyInitiatedIndex from './20261206_0400_supply_initiated_index.js';

/** The wallet write side's tables (block 04xx). */
export const walletWriteMigrations: MigrationSet = {
  '20261121_0400_wallet_jobs': walletJobs,
  '20261121_0401_wallet_exports': walletExports,
  '20261124_0402_claim_tokens': claimTokens,
  '20261129_0400_withdrawal_requested_index': withdrawalRequestedIndex,
  '20261206_0400_supply_initiated_index': supplyInitiatedIndex,
};
