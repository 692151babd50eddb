import { CommandPipeline, EventStore } from '@filiere/event-store';
import { narrowDb } from '@filiere/platform';
import type { ContextModule, JobModule } from '../kernel/module.js';
import { DEFAULT_WINDOW_MS } from './domain/index.js';
import { DailyCloseRunner, dailyCloseLoop, providerSource } from './jobs/daily-close.js';
import type { ReconciliationTables } from './tables.js';
import { reconciliationEvents, reconciliationStreams } from './catalogue.js';
import * as reconciliation from './migrations/20261207_0900_reconciliation.js';
import * as exceptionOwner from './migrations/20261207_1000_exception_owner.js';
import { RECONCILIATION_PUSHES } from './pushes.js';
import {
  reconciliationMovementsProjector,
  reconciliationProjector,
} from './read-model/projectors.js';

/**
 * The daily close in the worker (with REDIS_URL; without it the API runs it): its own pipeline
 * with the product's stream types, on platform's in-process loop.
 */
const dailyClose: JobModule = {
  name: 'reconciliation-daily-close',
  async start(ctx) {
    const pipeline = new CommandPipeline(new EventStore(ctx.db, ctx.catalogue), {
      batchMax: ctx.config.COMMAND_BATCH_MAX,
      batchWaitMs: ctx.config.COMMAND_BATCH_WAIT_MS,
    });
    for (const stream of reconciliationStreams) pipeline.registerStreamType(stream);
    const runner = new DailyCloseRunner(
      {
        db: narrowDb<ReconciliationTables>()(ctx.db),
        pipeline,
        limits: {
          maxCommandAmount: ctx.config.MAX_COMMAND_AMOUNT,
          maxBalance: ctx.config.MAX_BALANCE,
        },
        clock: () => new Date(),
        windowMs: DEFAULT_WINDOW_MS,
      },
      ['BANK', providerSource(ctx.config.PAYMENT_PROVIDER)],
    );
    const loop = dailyCloseLoop(runner, ctx.logger);
    loop.start();
    return {
      async close() {
        await loop.stop();
        await pipeline.close();
      },
    };
  },
};

/**
 * Reconciliation: the providers' and the bank's statements (streams `recstatement-…`), matched
 * every day with the ledger's supplies and payouts (`recday-…`), and the exceptions left
 * (`recexception-…`), resolved by finance through the wallet's own commands (docs/reconciliation.md).
 */
export const reconciliationModule: ContextModule = {
  name: 'reconciliation',
  events: reconciliationEvents,
  streams: reconciliationStreams,
  migrations: {
    '20261207_0900_reconciliation': reconciliation,
    '20261207_1000_exception_owner': exceptionOwner,
  },
  projectors: [reconciliationProjector, reconciliationMovementsProjector],
  jobs: [dailyClose],
  pushes: RECONCILIATION_PUSHES,
  http: async () => (await import('./http/index.js')).registerReconciliation,
};

export type { ReconciliationTables } from './tables.js';
/** A run, for the scheduled job, the bench and the bank test. */
export { runReconciliation, type RunResult } from './commands/run.js';
export { importLines } from './commands/statements.js';
export type { ReconciliationDeps } from './commands/context.js';
export {
  DEFAULT_WINDOW_MS,
  reconcile,
  type LedgerMovement,
  type Source,
  type StatementLine,
} from './domain/index.js';
export { fetchFedapayDay } from './sources/fedapay.js';
