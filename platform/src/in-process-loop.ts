import { ForegroundYield, type Foreground } from './foreground.js';
import type { Logger } from './logger.js';

/** What an in-process loop drives: e.g. the wallet's job runner, the export runner. */
export interface LoopRunner {
  /** Runs the jobs due now; answers how many it ran (the loop calls it again until 0). */
  runDue(): Promise<number>;
  /** Called once at start, before the first run (jobs rebuilt from the ledger's state). */
  recover?(): Promise<unknown>;
  /** Set by the loop while it runs: a job scheduled at or before now wakes it. */
  onScheduled?: (runAt: Date) => void;
  /** Housekeeping (old files, old jobs), at start and every `sweepMs`. */
  sweep?(): Promise<unknown>;
}

export interface InProcessLoopOptions {
  /** Names the jobs in log messages ('wallet jobs failed'). */
  name: string;
  /** Due jobs are looked for this often (delayed retries, lost wake-ups, dead runners' leases). */
  pollMs?: number;
  /** `sweep` runs this often (and at start) when the runner has one; default 10 minutes. */
  sweepMs?: number;
  /** This loop's work is foreground work (a contract run): marked busy while a run lasts. */
  marks?: Foreground;
  /**
   * This loop's work yields to foreground work (payouts to a contract run): before each batch
   * it waits while `yieldTo` is busy, at most `maxYieldMs` in a row (default 30 s; then it runs
   * as long before it waits again: ForegroundYield).
   */
  yieldTo?: Foreground;
  maxYieldMs?: number;
}

/**
 * Runs a runner's jobs inside this process, one run at a time: at start it recovers (when
 * the runner can) and sweeps, then runs due jobs when woken (a job scheduled, a new export,
 * a BullMQ wake-up) and every `pollMs`. Wake-ups during a run are coalesced into one more run.
 */
export class InProcessLoop {
  private timers: NodeJS.Timeout[] = [];
  private current: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private readonly yielding: ForegroundYield | undefined;

  constructor(
    readonly runner: LoopRunner,
    private readonly logger: Logger,
    private readonly options: InProcessLoopOptions,
  ) {
    this.yielding = options.yieldTo
      ? new ForegroundYield(options.yieldTo, options.maxYieldMs)
      : undefined;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const { runner } = this;
    if ('onScheduled' in runner) {
      runner.onScheduled = (runAt) => {
        if (runAt.getTime() <= Date.now()) this.wake();
      };
    }
    const poll = setInterval(() => this.wake(), this.options.pollMs ?? 1000);
    poll.unref();
    this.timers = [poll];
    if (runner.sweep) {
      const sweep = setInterval(() => void this.sweep(), this.options.sweepMs ?? 10 * 60_000);
      sweep.unref();
      this.timers.push(sweep);
      void this.sweep();
    }
    if (runner.recover) {
      runner
        .recover()
        .catch((err: unknown) => this.logger.error({ err }, `${this.options.name} recovery failed`))
        .finally(() => this.wake());
    } else {
      this.wake();
    }
  }

  private async sweep(): Promise<void> {
    try {
      await this.runner.sweep?.();
    } catch (err) {
      this.logger.warn({ err }, `${this.options.name} sweep failed`);
    }
  }

  /** Runs due jobs now (coalesced with a run in progress). */
  wake(): void {
    if (this.stopped) return;
    if (this.current) {
      this.again = true;
      return;
    }
    // Marked for the whole cycle, not per runDue: a yielding loop never slips a batch into
    // the gap between two of this loop's batches.
    const end = this.options.marks?.begin();
    this.current = (async () => {
      do {
        this.again = false;
        try {
          while (!this.stopped) {
            await this.yielding?.wait(() => this.stopped);
            if (this.stopped || (await this.runner.runDue()) === 0) break;
          }
        } catch (err) {
          this.logger.error({ err }, `${this.options.name} failed`);
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      end?.();
      this.current = undefined;
    });
  }

  /** Waits for the run in progress, if any. */
  async idle(): Promise<void> {
    while (this.current) await this.current;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    if ('onScheduled' in this.runner) this.runner.onScheduled = () => undefined;
    await this.idle();
  }
}
