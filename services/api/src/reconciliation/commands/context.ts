import type { Kysely } from 'kysely';
import type { CommandPipeline } from '@filiere/event-store';
import type { AmountLimits } from '../../wallet/index.js';
import type { ReconciliationTables } from '../tables.js';

/** What reconciliation's services need. */
export interface ReconciliationDeps {
  db: Kysely<ReconciliationTables>;
  pipeline: CommandPipeline;
  /** The wallet's MAX_COMMAND_AMOUNT and MAX_BALANCE, for the credits a resolution makes. */
  limits: AmountLimits;
  clock: () => Date;
  /** Matching window for amount + account + time (ms). */
  windowMs: number;
}

/** How many days back a run looks for lines and movements still unmatched. */
export const LOOKBACK_DAYS = 35;
