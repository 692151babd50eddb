/**
 * Spaces a projection loop's runs: `wait()` resolves at once when the previous run started at
 * least `intervalMs` ago (a quiet log: the next event is projected without delay), else when
 * that interval has passed, so that under a steady flow the events gather into one batch per
 * interval instead of a batch per append.
 *
 * Why: a group batch costs about the same whether it carries one transfer or fifty (locking the
 * checkpoints, reading the head, each member's statements, the commit, the pushes). Run as soon
 * as woken, the loop ran back to back at any rate: at 300 transfers/s its batches carried ~1.5
 * transfers and cost ~2.7 ms of the API's CPU and ~1.7 ms of PostgreSQL's per transfer, ten
 * times the closed loop's (docs/benchmarks.md).
 *
 * `hurry()` ends a wait at once and lets the next one through (a caller waiting for the
 * projections, `idle()`; closing).
 */
export class BatchPacer {
  private last = Number.NEGATIVE_INFINITY;
  private hurried = false;
  /** Waits in progress: a worker's group jobs may wait side by side (BullMQ's concurrency). */
  private readonly pending = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();

  constructor(readonly intervalMs: number) {}

  async wait(): Promise<void> {
    const remaining = this.last + this.intervalMs - performance.now();
    if (remaining > 0 && !this.hurried) {
      await new Promise<void>((resolve) => {
        const waiting = {
          timer: setTimeout(() => {
            this.pending.delete(waiting);
            resolve();
          }, remaining),
          resolve,
        };
        this.pending.add(waiting);
      });
    }
    this.hurried = false;
    this.last = performance.now();
  }

  hurry(): void {
    this.hurried = true;
    for (const waiting of this.pending) {
      clearTimeout(waiting.timer);
      waiting.resolve();
    }
    this.pending.clear();
  }
}
