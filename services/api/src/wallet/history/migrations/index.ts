import type { MigrationSet } from '@filiere/platform';
import * as balanceHistory from './20261127_0400_wallet_balance_history.js';

/** The wallet history's read table (block 20261127_04NN). */
export const walletHistoryMigrations: MigrationSet = {
  '20261127_0400_wallet_balance_history': balanceHistory,
};
