import type { Logger } from '@filiere/platform';
import type { ExportRunner } from './export-runner.js';

export interface ExportLoopOptions {
  /** Claimable jobs (a lost wake-up, a dead runner's lease) are looked for this often. */
  pollMs?: number;
  /** Old jobs and files are swept this often (and at start). */
  sweepMs?: number;
}

/**
 * Drives an ExportRunner: runs jobs one after the other when woken (a new job, a BullMQ
 * wake-up) and every `pollMs`, and sweeps expired files. The API uses it without
 * REDIS_URL; the worker uses it behind its BullMQ queue.
 */
export class ExportLoop {
  private timers: NodeJS.Timeout[] = [];
  private current: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    readonly runner: ExportRunner,
    private readonly logger: Logger,
    private readonly options: ExportLoopOptions = {},
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const poll = setInterval(() => this.wake(), this.options.pollMs ?? 2_000);
    const sweep = setInterval(() => void this.sweep(), this.options.sweepMs ?? 10 * 60_000);
    poll.unref();
    sweep.unref();
    this.timers = [poll, sweep];
    void this.sweep();
    this.wake();
  }

  private async sweep(): Promise<void> {
    try {
      await this.runner.sweep();
    } catch (err) {
      this.logger.warn({ err }, 'export sweep failed');
    }
  }

  /** Runs claimable jobs now (coalesced with a run in progress). */
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
          while (!this.stopped && (await this.runner.runDue()) > 0);
        } catch (err) {
          this.logger.error({ err }, 'export jobs failed');
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
    for (const timer of this.timers) clearInterval(timer);
    await this.idle();
  }
}
