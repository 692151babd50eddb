import { sql, type Kysely } from 'kysely';

export interface LagFigures {
  events: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * Projection lag as the read side sees it: every `intervalMs` the probe notes
 * (PostgreSQL clock) the lowest checkpoint of all projectors; an event's lag is
 * the first time that checkpoint reached its position minus its `recorded_at`
 * (the start of the transaction that appended it). So it covers commit, wake-up,
 * dispatch, read, apply and checkpoint commit, to within one poll interval.
 */
/** `DB`: any database (its queries are raw SQL on the checkpoints and the event log). */
export class LagProbe<DB> {
  private readonly samples: { t: number; p: number }[] = [];
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly intervalMs = 5,
  ) {}

  start(): void {
    this.running = (async () => {
      while (!this.stopped) {
        this.samples.push(await this.sample());
        await new Promise((r) => setTimeout(r, this.intervalMs));
      }
    })();
  }

  private async sample(): Promise<{ t: number; p: number }> {
    const row = (
      await sql<{ t: number; p: number | null }>`
        select (extract(epoch from clock_timestamp()) * 1000)::float8 as t,
               min(position) as p
        from projection_checkpoints`.execute(this.db)
    ).rows[0]!;
    return { t: row.t, p: Number(row.p ?? 0) };
  }

  /** Waits (up to `timeoutMs`) until every projector has read `head`, then stops. */
  async stopAfter(head: number, timeoutMs = 60_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && (this.samples.at(-1)?.p ?? 0) < head) {
      await new Promise((r) => setTimeout(r, 20));
    }
    this.stopped = true;
    await this.running;
    return (this.samples.at(-1)?.p ?? 0) >= head;
  }

  /** Lags of the events after `from` up to `to`. */
  async figures(from: number, to: number): Promise<LagFigures> {
    const events = (
      await sql<{ position: number; t: number }>`
        select position, (extract(epoch from recorded_at) * 1000)::float8 as t
        from events where position > ${from} and position <= ${to} order by position`.execute(
        this.db,
      )
    ).rows;
    const lags: number[] = [];
    let s = 0;
    for (const e of events) {
      while (s < this.samples.length && this.samples[s]!.p < Number(e.position)) s++;
      if (s === this.samples.length) break; // not projected before the probe stopped
      lags.push(Math.max(0, this.samples[s]!.t - e.t));
    }
    lags.sort((a, b) => a - b);
    const at = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? 0;
    return { events: lags.length, p50: at(0.5), p99: at(0.99), max: lags.at(-1) ?? 0 };
  }
}
