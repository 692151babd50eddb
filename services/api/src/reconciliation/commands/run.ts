import { sql } from 'kysely';
import { handleCommand, streamRef } from '@filiere/event-store';
import {
  channelOf,
  closeDay,
  dayFigures,
  dayStream,
  dayStreamId,
  emptyFigures,
  exceptionCandidates,
  exceptionStream,
  exceptionStreamId,
  nextDay,
  openException,
  reconcile,
  type LedgerMovement,
  type Source,
  type StatementLine,
} from '../domain/index.js';
import { LOOKBACK_DAYS, type ReconciliationDeps } from './context.js';

export interface RunResult {
  source: Source;
  day: string;
  matched: number;
  unmatchedLines: number;
  unmatchedMovements: number;
  /** Exceptions this run opened. */
  opened: number;
}

const PAGE = 20_000;

/** The instant a Benin day (UTC+1) starts. */
const dayStart = (day: string) => new Date(`${day}T00:00:00+01:00`);

/** The Benin day of a `timestamptz` column, as `YYYY-MM-DD` (the same as `beninDay`). */
const beninDayOf = (column: string) =>
  sql<string>`to_char((${sql.ref(column)} at time zone 'UTC') + interval '1 hour', 'YYYY-MM-DD')`;

/** The pairs PostgreSQL settled, counted on the day of their line and of their movement. */
interface SettledByDay {
  day: string;
  n: number;
  amount: number;
}

/**
 * Closes `day` for `source`: matches the lines and movements of the last LOOKBACK_DAYS up to
 * `day` (links made by hand kept), writes each of those days' figures (a day whose figures
 * did not change appends nothing), and opens the exceptions the matching calls for (each
 * once). Deterministic: the same lines, movements and links give the same pairs, so a run
 * repeated changes nothing.
 *
 * A run may hold a million lines and as many movements, most of which name each other by
 * reference and nothing else. PostgreSQL settles those first, in one join: a line and a
 * movement that name each other and nothing else (the line names no other movement, no
 * other line names the movement), with the same amount, and neither in a link made by hand.
 * `reconcile` would pair exactly those whatever else it holds (no other line can take the
 * movement, the line takes it as soon as its turn comes), so they are counted in the day's
 * figures without leaving the database. Everything else (links, lines without a reference,
 * names shared or taken twice, amount differences, what is alone) goes through `reconcile`,
 * read through cursors; all of it from one snapshot.
 */
export async function runReconciliation(
  deps: ReconciliationDeps,
  source: Source,
  day: string,
): Promise<RunResult> {
  const from = nextDay(day, -LOOKBACK_DAYS);
  const channel = channelOf(source);
  const sinceInstant = dayStart(from);
  const untilInstant = dayStart(nextDay(day));
  const links = await deps.db
    .selectFrom('reconciliation_exceptions')
    .select(['linked_line_key as lineKey', 'linked_movement_key as movementKey'])
    .where('source', '=', source)
    .where('status', '=', 'LINKED')
    .execute();
  const linkedLines = links.map((l) => l.lineKey!);
  const linkedMovements = links.map((l) => l.movementKey!);

  const read = await deps.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      // The join and its groupings hash about a million keys: 64 MB per hash (work_mem times the
      // default hash_mem_multiplier) spills a little to disk and keeps the backend under 512 MB.
      await sql`set local work_mem = '32MB'`.execute(trx);
      // The tables themselves in each branch (no CTE for either side): PostgreSQL then knows how
      // many of their references are null and hashes the smaller side of each join.
      await sql`create temporary table reconciliation_run_pairs on commit drop as
        with named as materialized (
          select l.line_key, m.movement_key, l.amount, l.occurred_at, m.amount as movement_amount,
            m.moved_at
          from reconciliation_lines l
          join reconciliation_movements m
            on m.provider_reference = l.provider_reference and m.direction = l.direction
          where l.source = ${source} and l.day >= ${from} and l.day <= ${day}
            and m.channel = ${channel} and m.moved_at >= ${sinceInstant}
            and m.moved_at < ${untilInstant} and m.provider_reference is not null
          union all
          -- A pair named both ways is counted once (by the provider's reference above).
          select l.line_key, m.movement_key, l.amount, l.occurred_at, m.amount, m.moved_at
          from reconciliation_lines l
          join reconciliation_movements m on m.reference = l.reference and m.direction = l.direction
          where l.source = ${source} and l.day >= ${from} and l.day <= ${day}
            and m.channel = ${channel} and m.moved_at >= ${sinceInstant}
            and m.moved_at < ${untilInstant} and l.reference is not null
            and m.provider_reference is distinct from l.provider_reference
        ), shared_lines as (
          select line_key from named group by line_key having count(*) > 1
        ), shared_movements as (
          select movement_key from named group by movement_key having count(*) > 1
        )
        select n.line_key, n.movement_key, n.amount,
          ${beninDayOf('n.occurred_at')} as line_day, ${beninDayOf('n.moved_at')} as movement_day
        from named n
        where n.amount = n.movement_amount
          and not exists (select from shared_lines s where s.line_key = n.line_key)
          and not exists (select from shared_movements s where s.movement_key = n.movement_key)
          and n.line_key <> all(${linkedLines}::text[])
          and n.movement_key <> all(${linkedMovements}::text[])`.execute(trx);
      const pairs = trx.withTables<{
        reconciliation_run_pairs: {
          line_key: string;
          movement_key: string;
          amount: number;
          line_day: string;
          movement_day: string;
        };
      }>();
      const settled = await pairs
        .selectFrom('reconciliation_run_pairs')
        .select([
          'line_day',
          'movement_day',
          (eb) => eb.fn.countAll<string>().as('n'),
          (eb) => eb.fn.sum<string>('amount').as('amount'),
        ])
        .groupBy(['line_day', 'movement_day'])
        .execute();

      // The rest, each side in one pass (one hash of the settled keys) read through a cursor,
      // PAGE rows at a time: only the compact lists grow. Movements in key order, as the
      // matching's ties depend on their order.
      const lines: StatementLine[] = [];
      await sql`declare reconciliation_run_lines no scroll cursor for
        select l.provider_reference, l.reference, l.direction, l.amount, l.account, l.occurred_at
        from reconciliation_lines l
        where l.source = ${source} and l.day >= ${from} and l.day <= ${day}
          and not exists (select from reconciliation_run_pairs p where p.line_key = l.line_key)
        order by l.line_key`.execute(trx);
      for (;;) {
        const { rows } = await sql<{
          provider_reference: string;
          reference: string | null;
          direction: StatementLine['direction'];
          amount: number;
          account: string | null;
          occurred_at: Date;
        }>`fetch ${sql.raw(String(PAGE))} from reconciliation_run_lines`.execute(trx);
        for (const r of rows) {
          lines.push({
            source,
            providerReference: r.provider_reference,
            reference: r.reference,
            direction: r.direction,
            amount: r.amount,
            account: r.account,
            occurredAt: r.occurred_at.toISOString(),
          });
        }
        if (rows.length < PAGE) break;
      }
      await sql`close reconciliation_run_lines`.execute(trx);
      const movements: LedgerMovement[] = [];
      await sql`declare reconciliation_run_movements no scroll cursor for
        select m.movement_key, m.kind, m.reference, m.provider_reference, m.direction, m.amount,
          m.account, m.moved_at
        from reconciliation_movements m
        where m.channel = ${channel} and m.moved_at >= ${sinceInstant}
          and m.moved_at < ${untilInstant}
          and not exists (
            select from reconciliation_run_pairs p where p.movement_key = m.movement_key
          )
        order by m.movement_key`.execute(trx);
      for (;;) {
        const { rows } = await sql<{
          movement_key: string;
          kind: LedgerMovement['kind'];
          reference: string;
          provider_reference: string | null;
          direction: LedgerMovement['direction'];
          amount: number;
          account: string | null;
          moved_at: Date;
        }>`fetch ${sql.raw(String(PAGE))} from reconciliation_run_movements`.execute(trx);
        for (const r of rows) {
          movements.push({
            key: r.movement_key,
            channel,
            kind: r.kind,
            reference: r.reference,
            providerReference: r.provider_reference,
            direction: r.direction,
            amount: r.amount,
            account: r.account,
            occurredAt: r.moved_at.toISOString(),
          });
        }
        if (rows.length < PAGE) break;
      }
      await sql`close reconciliation_run_movements`.execute(trx);
      const on = (pick: (r: (typeof settled)[number]) => string): SettledByDay[] => {
        const byDay = new Map<string, SettledByDay>();
        for (const r of settled) {
          const d = pick(r);
          const s = byDay.get(d) ?? { day: d, n: 0, amount: 0 };
          s.n += Number(r.n);
          s.amount += Number(r.amount);
          byDay.set(d, s);
        }
        return [...byDay.values()];
      };
      return {
        lines,
        movements,
        settledLines: on((r) => r.line_day),
        settledMovements: on((r) => r.movement_day),
      };
    });
  const { lines, movements } = read;
  const result = reconcile(lines, movements, {
    windowMs: deps.windowMs,
    links: links.map((l) => ({ lineKey: l.lineKey!, movementKey: l.movementKey! })),
  });

  const figures = dayFigures(source, lines, movements, result);
  const of = (d: string) => {
    let f = figures.get(d);
    if (f === undefined) figures.set(d, (f = emptyFigures()));
    return f;
  };
  let settled = 0;
  for (const s of read.settledLines) {
    const f = of(s.day);
    f.lines += s.n;
    f.linesAmount += s.amount;
    f.matched += s.n;
    f.matchedAmount += s.amount;
    settled += s.n;
  }
  for (const s of read.settledMovements) {
    const f = of(s.day);
    f.movements += s.n;
    f.movementsAmount += s.amount;
  }
  const at = deps.clock().toISOString();
  // A day with nothing on either side is closed too: reconciled, with zeros.
  if (!figures.has(day)) figures.set(day, emptyFigures());
  for (const [d, f] of [...figures].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (d < from || d > day) continue;
    const streamId = dayStreamId(source, d);
    await handleCommand(deps.pipeline, {
      streams: { day: streamRef(dayStream, streamId) },
      decide: (states) => {
        const events = closeDay(states.day, { source, day: d, figures: f, at });
        return { writes: events.length ? [{ streamId, events }] : [], result: undefined };
      },
    });
  }
  // Sent together: the pipeline appends them in group commits (each opens its own stream).
  const opened = (
    await Promise.all(
      exceptionCandidates(source, lines, movements, result, day).map((candidate) => {
        const streamId = exceptionStreamId(candidate.exceptionId);
        return handleCommand(deps.pipeline, {
          streams: { exception: streamRef(exceptionStream, streamId) },
          decide: (states) => {
            const events = openException(states.exception, candidate);
            return { writes: events.length ? [{ streamId, events }] : [], result: events.length };
          },
        });
      }),
    )
  ).reduce((sum, n) => sum + n, 0);
  return {
    source,
    day,
    matched: settled + result.matches.length,
    unmatchedLines: result.unmatchedLines.length,
    unmatchedMovements: result.unmatchedMovements.filter((m) => m.channel === channel).length,
    opened,
  };
}
