import { InProcessLoop, type Logger, type LoopRunner } from '@filiere/platform';
import type { ReconciliationDeps } from '../commands/context.js';
import { runReconciliation } from '../commands/run.js';
import { beninDay, nextDay, type Source } from '../domain/index.js';

/**
 * The scheduled close: once a Benin day is over, closes it for each source (the bank, and the
 * configured payment provider) that has no close of it yet. A close is `DayReconciled` on the
 * day's stream, which a run writes the first time whatever the figures, so a day is closed
 * once by the schedule; finance may run it again on demand. Several processes may sweep at
 * once: a run is deterministic and its commands open each stream once.
 */
export class DailyCloseRunner implements LoopRunner {
  constructor(
    private readonly deps: ReconciliationDeps,
    private readonly sources: readonly Source[],
  ) {}

  async runDue(): Promise<number> {
    const yesterday = nextDay(beninDay(this.deps.clock()), -1);
    for (const source of this.sources) {
      const closed = await this.deps.db
        .selectFrom('reconciliation_days')
        .select('day')
        .where('source', '=', source)
        .where('day', '=', yesterday)
        .executeTakeFirst();
      if (closed) continue;
      await runReconciliation(this.deps, source, yesterday);
    }
    // Each close is done once: the loop need not run again at once.
    return 0;
  }
}

/** The payment provider's source for PAYMENT_PROVIDER. */
export const providerSource = (provider: 'sandbox' | 'kkiapay' | 'fedapay'): Source =>
  provider === 'fedapay' ? 'FEDAPAY' : provider === 'kkiapay' ? 'KKIAPAY' : 'SANDBOX';

/** The close on platform's in-process loop, every `pollMs` (default ten minutes). */
export const dailyCloseLoop = (runner: DailyCloseRunner, logger: Logger, pollMs = 600_000) =>
  new InProcessLoop(runner, logger, { name: 'reconciliation daily close', pollMs });
