import type { ContextModule, JobModule } from '../kernel/module.js';
import { walletEvents, walletStreams } from './catalogue.js';
import { walletDemoStep, walletGrowerPaymentsDemoStep } from './demo/wallet.js';
import { startExportWorker } from './export/export-queue.js';
import { startWalletJobWorker } from './jobs/bullmq.js';
import { balanceHistoryProjector, walletHistoryMigrations } from './history/index.js';
import { walletWriteMigrations } from './migrations/index.js';
import { walletProjectors, walletReadMigrations } from './read-model/index.js';
import { WALLET_PUSHES } from './pushes.js';
import { WALLET_JOBS } from './jobs/job-store.js';

/**
 * Payouts and supply checks (`wallet_jobs`), with their own command pipeline: run by the worker
 * when BullMQ wakes it, or without REDIS_URL in the API's background thread, woken by the API's
 * thread when it schedules one (`AppDeps.backgroundThread`).
 */
const walletJobs: JobModule = {
  name: WALLET_JOBS,
  withoutRedis: true,
  // In the API's background thread, payouts wait while a contract run settles (its end is
  // what the aggregator waits for; the payouts it queued follow at once).
  start: (ctx) =>
    startWalletJobWorker({ ...ctx, ...(ctx.foreground ? { yieldTo: ctx.foreground } : {}) }),
};

/** Background .xlsx exports (`wallet_exports`, files under DATA_DIR/exports). */
const walletExports: JobModule = {
  name: 'wallet-exports',
  start: (ctx) =>
    startExportWorker({
      db: ctx.db,
      redisUrl: ctx.redisUrl,
      publish: ctx.publish,
      logger: ctx.logger,
      runner: { dataDir: ctx.config.DATA_DIR },
    }),
};

/**
 * The wallet: a double-entry ledger in F CFA (streams `wallet-…`, `supply-…`,
 * `withdrawal-…`), its read model, payouts, supply checks and exports, and its routes (http/).
 */
export const walletModule: ContextModule = {
  name: 'wallet',
  events: walletEvents,
  streams: walletStreams,
  migrations: { ...walletReadMigrations, ...walletWriteMigrations, ...walletHistoryMigrations },
  projectors: [...walletProjectors, balanceHistoryProjector],
  jobs: [walletJobs, walletExports],
  demo: [walletDemoStep, walletGrowerPaymentsDemoStep],
  pushes: WALLET_PUSHES,
  http: async () => {
    const { registerWallet } = await import('./http/index.js');
    const { registerWalletHistory } = await import('./history/routes.js');
    return async (app) => {
      await registerWallet(app);
      await registerWalletHistory(app);
    };
  },
};

// The public face: what other contexts and the scripts may use.
export {
  evolveWallet,
  holdBook,
  initialWalletState,
  move,
  postingsOf,
  walletAccount,
  walletEvent,
  walletStream,
  walletStreamId,
  type HoldBook,
  type WalletEvent,
  type WalletState,
} from './domain/index.js';
/**
 * Holds, for the contracts: their deciders run inside the contracts' own pipeline commands,
 * so a contract's events and its hold are appended together (one transaction).
 */
export {
  placeHold,
  releaseHold,
  settleHold,
  type HoldAnswer,
  type SettleHold,
  type SettleHoldAnswer,
} from './domain/index.js';
/** A payout the system decides (a grower's net after a contract run), for the contracts' run. */
export {
  requestSystemPayout,
  withdrawalStreamId,
  type Actor as WalletActor,
  type AmountLimits,
  type RecipientStatus,
  type RequestSystemPayout,
  type Transfer,
  type WithdrawalAnswer,
  type WithdrawalState,
} from './domain/index.js';
export { schedulePayoutJob, schedulePayoutJobs } from './jobs/system-payout.js';
/** Opens (in the same append) the wallets a command credits that were never opened. */
export { openingWallets } from './commands/opening-wallets.js';
/** The wallet's stream types on another pipeline (a worker job appending to wallets). */
export { registerWalletStreams } from './catalogue.js';
export type { WalletJobsTables } from './jobs/job-store.js';
/** Wallet to wallet by its owner, for the seasons' accepted advances (PINEAPLE, SOCIAL). */
export { transfer, type MovementAnswer, type Recipient } from './domain/index.js';
/** Opens a wallet used for the first time (a grower paid an advance before it ever held money). */
export { openWallet } from './domain/index.js';
export { ExportRunner } from './export/export-runner.js';
export type { WalletExportsTables } from './export/export-store.js';
/** The streaming .xlsx sheet writer and its cursor reader (the actors' downloads use them). */
export { writeSheetXlsx, type SheetCells, type SheetSpec } from './export/xlsx-sheet.js';
export { forEachCursorPage } from './export/cursor-pages.js';
export { DEMO_REFUSED_BANK_ACCOUNT } from './demo/wallet.js';
export { requireEmptyWallet, walletBalanceOf } from './balance-of.js';
export type { WalletDb, WalletTables } from './tables.js';
export { widgetContentSecurity } from './providers/widget-csp.js';
/** Balances at an instant (wallet_balance_history), for `npm run ledger:balance`. */
export {
  balanceAt,
  recentMovements,
  type BalanceAt,
  type WalletHistoryTables,
} from './history/index.js';
/** The wallet's stream types, for commands of other contexts that read wallet streams. */
export { withdrawalStream } from './domain/index.js';
/**
 * For reconciliation's resolutions (a four-eyes approval appends the wallet's own decision):
 * credit a supply the provider or the bank shows paid, fail and refund a payout never made.
 */
export {
  failWithdrawal,
  supplyStream,
  supplyStreamId,
  systemActor,
  validateBankSupply,
  verifySupply,
  type SupplyState,
} from './domain/index.js';
