import { sql, type Kysely } from 'kysely';
import { beninDay } from '@filiere/platform';
import type { DemoClock, DemoContext, DemoStep } from './module.js';
import type { ProductTables } from './tables.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** How many days before today the demo's first step is dated. */
export const DEMO_DAYS = 200;

/**
 * The demo's clock: the steps move it to the moments of a season in progress (`set`), the
 * command services date their decisions by it (`now`, given to the steps' apps as
 * `AppDeps.clock`), and the events appended while it shows a moment are recorded at that
 * moment. The log's `recorded_at` is not covered by the hash chain (only position, stream,
 * version, type, payloads): the events appended under a moment have their `recorded_at` moved
 * back by the clock's offset (real time − the moment's), so their spacing and order are kept;
 * payload dates (createdAt, deliveredOn…) come from `now` with the same offset. Between two
 * moments it runs at real speed.
 *
 * Moments may go back across streams (an invitation sent two days ago, then the inputs of five
 * months ago on other streams), never within one: `finish` checks that each stream's
 * `recorded_at` never goes back as its version grows (what 'balance at an instant' relies on)
 * and that every event is before now, and refuses the demo otherwise.
 */
export class DemoStepClock implements DemoClock {
  private offsetMs = 0;
  /** First position of the events the current offset applies to. */
  private from = 0;
  /** The moment the log ended at before this load (the demo never dates before it). */
  private floor = 0;

  constructor(private readonly db: Kysely<ProductTables>) {}

  readonly now = (): Date => new Date(Date.now() - this.offsetMs);

  async start(): Promise<void> {
    const { rows } = await sql<{ head: string | null; last: Date | null }>`
      select max(position) as head, max(recorded_at) as last from public.events`.execute(this.db);
    this.from = Number(rows[0]?.head ?? 0) + 1;
    this.floor = rows[0]?.last?.getTime() ?? 0;
  }

  async set(at: Date): Promise<void> {
    await this.stamp();
    // A moment a little behind the clock (today's hours squeezed before now, a slow step) is
    // the clock's own: only a deliberate jump of days goes back. A moment before the log's end
    // cannot be shown: the clock keeps running from where it is, since jumping back to that
    // end would date a stream's next event before the one it follows.
    const shown = this.now().getTime();
    const wanted = at.getTime();
    const moment =
      wanted < this.floor
        ? Math.max(shown, this.floor)
        : wanted < shown && shown - wanted < 6 * HOUR
          ? shown
          : wanted;
    this.offsetMs = Math.max(0, Date.now() - moment);
  }

  /**
   * `daysAgo` days before Benin's today, at `hour` Benin time. Today's hours are squeezed into
   * the part of today already past (less its last hour), in the same order, so never after now.
   */
  beninMoment(daysAgo: number, hour = 9): Date {
    const now = Date.now();
    const startOf = (at: number) => Date.parse(`${beninDay(new Date(at))}T00:00:00+01:00`);
    if (daysAgo > 0) return new Date(startOf(now - daysAgo * DAY) + hour * HOUR);
    const elapsed = now - startOf(now);
    const usable = elapsed > 2 * HOUR ? elapsed - HOUR : elapsed / 2;
    return new Date(startOf(now) + (usable * hour) / 24);
  }

  /** Dates the events appended since the last stamp by the current offset. */
  async stamp(): Promise<void> {
    const { rows } = await sql<{ head: string | null }>`
      with moved as (
        update public.events
        set recorded_at = recorded_at - ${this.offsetMs}::float8 * interval '1 millisecond'
        where position >= ${this.from}::bigint and ${this.offsetMs > 0}::boolean
        returning position
      )
      select greatest((select max(position) from moved), (select max(position) from public.events))
        as head`.execute(this.db);
    this.from = Number(rows[0]?.head ?? this.from - 1) + 1;
  }

  /** Stamps the last events, back to real time, and checks the log's time order. */
  async finish(from: number): Promise<void> {
    await this.stamp();
    this.offsetMs = 0;
    const { rows } = await sql<{ stream_id: string; type: string; version: number; late: boolean }>`
      select stream_id, type, version, recorded_at > now() as late from (
        select stream_id, type, version, recorded_at,
               lag(recorded_at) over (partition by stream_id order by version) as before
        from public.events where stream_id in (
          select distinct stream_id from public.events where position >= ${from}::bigint)
      ) e
      where e.recorded_at < e.before or e.recorded_at > now()
      limit 1`.execute(this.db);
    if (rows[0]) {
      throw new Error(
        rows[0].late
          ? `demo clock: ${rows[0].type} (${rows[0].stream_id} v${rows[0].version}) is dated after now`
          : `demo clock: ${rows[0].type} (${rows[0].stream_id} v${rows[0].version}) is dated before the event it follows`,
      );
    }
  }
}

/**
 * Runs each demo step that has not run on this database yet, recording it in
 * platform_meta, so a second start loads nothing twice. Returns the names run. The steps
 * share one clock (`DemoContext.clock`): each dates what it does in the season's past.
 */
export async function runDemoSteps(
  base: Omit<DemoContext, 'clock' | 'openApp'> & {
    openApp(
      config: Parameters<DemoContext['openApp']>[0],
      clock: () => Date,
    ): ReturnType<DemoContext['openApp']>;
  },
  steps: readonly DemoStep[],
): Promise<string[]> {
  const clock = new DemoStepClock(base.db);
  await clock.start();
  // The demo's season began about seven months ago: its first steps are dated then.
  await clock.set(clock.beninMoment(DEMO_DAYS));
  const from = await firstNewPosition(base.db);
  const ctx: DemoContext = {
    ...base,
    clock,
    openApp: (config) => base.openApp(config, clock.now),
  };
  const ran: string[] = [];
  for (const step of steps) {
    const key = `demo:${step.name}`;
    const done = await ctx.db
      .selectFrom('platform_meta')
      .select('key')
      .where('key', '=', key)
      .executeTakeFirst();
    if (done) continue;
    await step.run(ctx);
    await clock.stamp();
    await ctx.db
      .insertInto('platform_meta')
      .values({
        key,
        value: JSON.stringify({ loadedAt: new Date().toISOString() }),
        updated_at: sql`now()`,
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    ran.push(step.name);
  }
  await clock.finish(from);
  return ran;
}

async function firstNewPosition(db: Kysely<ProductTables>): Promise<number> {
  const { rows } = await sql<{ head: string | null }>`
    select max(position) as head from public.events`.execute(db);
  return Number(rows[0]?.head ?? 0) + 1;
}
