import type { Logger } from '@filiere/platform';
import type { WalletJobRunner } from './job-runner.js';

/**
 * Runs the wallet's jobs inside this process (no REDIS_URL): at start it recovers jobs
 * from the ledger's state, then runs due jobs when one is scheduled and every `pollMs`
 * (which is how delayed retries come due).
 */
export class InProcessJobLoop {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly runner: WalletJobRunner,
    private readonly logger: Logger,
    private readonly pollMs = 1000,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.runner.onScheduled = (runAt) => {
      if (runAt.getTime() <= Date.now()) this.wake();
    };
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.runner
      .recover()
      .catch((err: unknown) => this.logger.error({ err }, 'wallet job recovery failed'))
      .finally(() => this.wake());
  }

  /** Runs due jobs now (coalesced with a run in progress). */
  wake(): void {
    if (this.stopped) return;
    if (this.current) {
      this.again = true;
      return;
    }
    this.current = (async () => {
      do {
        this.again = false;
        try {
          while ((await this.runner.runDue()) > 0 && !this.stopped);
        } catch (err) {
          this.logger.error({ err }, 'wallet jobs failed');
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.current = undefined;
    });
  }

  /** Waits for the run in progress, if any. */
  async idle(): Promise<void> {
    while (this.current) await this.current;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.runner.onScheduled = () => undefined;
    await this.idle();
  }
}
