import type { Projector } from '@filiere/projections';
import { balancesProjector } from './balances.js';
import { financingProjector } from './financing.js';
import { holdsProjector } from './holds.js';
import { reportingProjector } from './reporting.js';
import { suppliesProjector } from './supplies.js';
import { transactionsProjector } from './transactions.js';

export { walletReadMigrations } from './migrations/index.js';
export {
  balancesProjector,
  financingProjector,
  holdsProjector,
  reportingProjector,
  suppliesProjector,
  transactionsProjector,
};

/**
 * The wallet's projectors (balances, transactions, supplies, stats, financing, reporting, and
 * what each hold keeps).
 */
export const walletProjectors: Projector[] = [
  balancesProjector,
  transactionsProjector,
  suppliesProjector,
  financingProjector,
  reportingProjector,
  holdsProjector,
];
