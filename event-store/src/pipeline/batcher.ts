/**
 * Group commit: gathers items while a batch is in flight (or for `waitMs`
 * when idle) and hands at most `max` of them at a time to `process`, one
 * batch at a time.
 */
export class Batcher<Item> {
  private readonly queue: Item[] = [];
  private running = false;
  private timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private idle: (() => void)[] = [];

  constructor(
    private readonly process: (items: Item[]) => Promise<void>,
    private readonly max: number,
    private readonly waitMs: number,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new Error('batch max must be ≥ 1');
  }

  push(item: Item): void {
    this.queue.push(item);
    if (this.running) return;
    if (this.queue.length >= this.max) {
      this.clearTimer();
      void this.run();
    } else if (!this.timer) {
      this.timer =
        this.waitMs > 0
          ? setTimeout(() => void this.run(), this.waitMs)
          : setImmediate(() => void this.run());
    }
  }

  /** Resolves once every pushed item has been processed. */
  drained(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private clearTimer(): void {
    if (!this.timer) return;
    clearTimeout(this.timer as NodeJS.Timeout);
    clearImmediate(this.timer as NodeJS.Immediate);
    this.timer = undefined;
  }

  private async run(): Promise<void> {
    this.clearTimer();
    if (this.running) return;
    this.running = true;
    try {
      // Items that arrived during a batch have waited already: run them at once.
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.max);
        await this.process(batch).catch(() => undefined);
      }
    } finally {
      this.running = false;
      const waiting = this.idle;
      this.idle = [];
      for (const resolve of waiting) resolve();
    }
  }
}
