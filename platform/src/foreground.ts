/**
 * Whether this process is doing batch work that people wait on (a contract run settling its
 * contracts), readable from any of its threads: background loops (payouts) wait while it lasts,
 * so the cores go to the work whose end is awaited rather than being shared with work that can
 * come a few seconds later. One 32-bit counter in a SharedArrayBuffer: the thread that made it
 * passes `buffer` to another (worker data), which wraps it in a Foreground of its own.
 */
export class Foreground {
  private readonly cell: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.cell = new Int32Array(buffer);
  }

  /** Foreground work begins; the answer ends it (once, however often it is called). */
  begin(): () => void {
    Atomics.add(this.cell, 0, 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      Atomics.sub(this.cell, 0, 1);
    };
  }

  /** Some foreground work is under way. */
  get busy(): boolean {
    return Atomics.load(this.cell, 0) > 0;
  }
}

/**
 * How background work yields to a Foreground: `wait()` (before each batch) returns at once
 * while the foreground is idle, and waits while it is busy — but never more than `maxMs` in a
 * row: having waited that long, the work runs for as long again before it waits again, so a
 * long foreground slows it to half its pace at worst and never starves it.
 */
export class ForegroundYield {
  private waitingSince: number | undefined;
  private freeUntil = 0;

  constructor(
    private readonly foreground: Foreground,
    private readonly maxMs = 30_000,
    private readonly pollMs = 50,
  ) {}

  async wait(stopped: () => boolean = () => false): Promise<void> {
    while (this.foreground.busy && !stopped()) {
      const now = Date.now();
      if (now < this.freeUntil) return;
      this.waitingSince ??= now;
      if (now - this.waitingSince >= this.maxMs) {
        this.waitingSince = undefined;
        this.freeUntil = now + this.maxMs;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
    this.waitingSince = undefined;
  }
}
