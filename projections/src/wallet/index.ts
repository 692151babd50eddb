import type { Projector } from '../projector.js';

export { walletReadMigrations } from './migrations/index.js';

/** The wallet's projectors (balances, transactions, supplies, stats, financing, reporting). */
export const walletProjectors: Projector[] = [];
