import { InProcessLoop, type Logger, type LoopRunner } from '@filiere/platform';
import type { ReconciliationDeps } from '../commands/context.js';
import { runReconciliation } from '../commands/run.js';
import { importLines } from '../commands/statements.js';
import { beninDay, nextDay, type Source, type StatementLine } from '../domain/index.js';

/** Fetches a source's statement of a day from its API (FedaPay). */
export type StatementFetcher = (source: Source, day: string) => Promise<StatementLine[] | null>;

/**
 * The scheduled close: once a Benin day is over, closes it for each source (the bank, and the
 * configured payment provider) that has no close of it yet; a source with an API (FedaPay) has
 * its statement fetched and recorded first, and is closed once its lines are projected. A close is `DayReconciled` on the
 * day's stream, which a run writes the first time whatever the figures, so a day is closed
 * once by the schedule; finance may run it again on demand. Several processes may sweep at
 * once: a run is deterministic and its commands open each stream once.
 */
export class DailyCloseRunner implements LoopRunner {
  constructor(
    private readonly deps: ReconciliationDeps,
    private readonly sources: readonly Source[],
    private readonly fetchStatement?: StatementFetcher,
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
      const fetched = await this.fetchStatement?.(source, yesterday);
      if (fetched) {
        const answer = await importLines(this.deps, source, fetched, null);
        // The run reads projected lines: close at a later poll once they are all there.
        const projected = await this.deps.db
          .selectFrom('reconciliation_lines')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('source', '=', source)
          .where('day', '=', yesterday)
          .executeTakeFirstOrThrow();
        if (Number(projected.n) < answer.recorded + answer.known) continue;
      }
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
