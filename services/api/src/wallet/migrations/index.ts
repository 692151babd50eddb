import type { MigrationSet } from '@filiere/platform';
import * as walletJobs from './20261121_0400_wallet_jobs.js';
import * as walletExports from './20261121_0401_wallet_exports.js';

/** The wallet write side's tables (block 04xx). */
export const walletWriteMigrations: MigrationSet = {
  '20261121_0400_wallet_jobs': walletJobs,
  '20261121_0401_wallet_exports': walletExports,
};
