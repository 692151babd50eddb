/**
 * The wallet's history: balances at any instant and statements between two days,
 * read from `wallet_balance_history` (one row per wallet event, filled by its projector from
 * the wallet stream's own fold). Block 20261127_04NN.
 */
export { walletHistoryMigrations } from './migrations/index.js';
export { balanceHistoryProjector } from './projector.js';
export {
  balanceAt,
  recentMovements,
  statementOf,
  type BalanceAt,
  type Statement,
} from './point-in-time.js';
export type { WalletHistoryTables } from './tables.js';
