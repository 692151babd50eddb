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

/**
 * Closes `day` for `source`: matches the lines and movements of the last LOOKBACK_DAYS up to
 * `day` (links made by hand kept), writes each of those days' figures (a day whose figures
 * did not change appends nothing), and opens the exceptions the matching calls for (each
 * once). Deterministic: the same lines, movements and links give the same pairs, so a run
 * repeated changes nothing.
 */
export async function runReconciliation(
  deps: ReconciliationDeps,
  source: Source,
  day: string,
): Promise<RunResult> {
  const from = nextDay(day, -LOOKBACK_DAYS);
  const lines: StatementLine[] = [];
  // Keyset pages: a run may hold a million lines and as many movements; the rows of one page
  // at a time are alive beside the compact lists.
  for (let after = ''; ;) {
    const rows = await deps.db
      .selectFrom('reconciliation_lines')
      .select([
        'line_key',
        'provider_reference',
        'reference',
        'direction',
        'amount',
        'account',
        'occurred_at',
      ])
      .where('source', '=', source)
      .where('day', '>=', from)
      .where('day', '<=', day)
      .where('line_key', '>', after)
      .orderBy('line_key')
      .limit(PAGE)
      .execute();
    for (const r of rows) {
      lines.push({
        source,
        providerReference: r.provider_reference,
        reference: r.reference,
        direction: r.direction as StatementLine['direction'],
        amount: r.amount,
        account: r.account,
        occurredAt: r.occurred_at.toISOString(),
      });
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.line_key;
  }
  const channel = channelOf(source);
  const movements: LedgerMovement[] = [];
  for (let after = ''; ;) {
    const rows = await deps.db
      .selectFrom('reconciliation_movements')
      .select([
        'movement_key',
        'kind',
        'reference',
        'provider_reference',
        'direction',
        'amount',
        'account',
        'moved_at',
      ])
      .where('channel', '=', channel)
      .where('moved_at', '>=', dayStart(from))
      .where('moved_at', '<', dayStart(nextDay(day)))
      .where('movement_key', '>', after)
      .orderBy('movement_key')
      .limit(PAGE)
      .execute();
    for (const r of rows) {
      movements.push({
        key: r.movement_key,
        channel,
        kind: r.kind as LedgerMovement['kind'],
        reference: r.reference,
        providerReference: r.provider_reference,
        direction: r.direction as LedgerMovement['direction'],
        amount: r.amount,
        account: r.account,
        occurredAt: r.moved_at!.toISOString(),
      });
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.movement_key;
  }
  const links = await deps.db
    .selectFrom('reconciliation_exceptions')
    .select(['linked_line_key as lineKey', 'linked_movement_key as movementKey'])
    .where('source', '=', source)
    .where('status', '=', 'LINKED')
    .execute();
  const result = reconcile(lines, movements, {
    windowMs: deps.windowMs,
    links: links.map((l) => ({ lineKey: l.lineKey!, movementKey: l.movementKey! })),
  });

  const at = deps.clock().toISOString();
  const figures = dayFigures(source, lines, movements, result);
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
    matched: result.matches.length,
    unmatchedLines: result.unmatchedLines.length,
    unmatchedMovements: result.unmatchedMovements.filter((m) => m.channel === channel).length,
    opened,
  };
}
