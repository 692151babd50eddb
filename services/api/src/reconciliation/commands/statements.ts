import { handleCommand, streamRef } from '@filiere/event-store';
import {
  beninDay,
  importStatement,
  statementStream,
  statementStreamId,
  type ImportAnswer,
  type Source,
  type StatementLine,
} from '../domain/index.js';
import type { ReconciliationDeps } from './context.js';

export interface ImportResult extends ImportAnswer {
  days: string[];
}

/**
 * Records a statement's lines, one command per day (stream `recstatement-<source>-<day>`):
 * a line already recorded changes nothing, so a statement imported twice appends nothing.
 */
export async function importLines(
  deps: Pick<ReconciliationDeps, 'pipeline'>,
  source: Source,
  lines: readonly StatementLine[],
  userId: string | null,
): Promise<ImportResult> {
  const byDay = new Map<string, StatementLine[]>();
  for (const line of lines) {
    const day = beninDay(line.occurredAt);
    const list = byDay.get(day);
    if (list) list.push({ ...line, source });
    else byDay.set(day, [{ ...line, source }]);
  }
  const total: ImportResult = { recorded: 0, known: 0, conflicts: [], days: [] };
  for (const [day, dayLines] of [...byDay].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const answer = await handleCommand(deps.pipeline, {
      streams: { statement: streamRef(statementStream, statementStreamId(source, day)) },
      ...(userId ? { metadata: { userId } } : {}),
      decide: ({ statement }) => {
        const { events, answer } = importStatement(statement, { source, day, lines: dayLines });
        return {
          writes: events.length ? [{ streamId: statementStreamId(source, day), events }] : [],
          result: answer,
        };
      },
    });
    total.recorded += answer.recorded;
    total.known += answer.known;
    total.conflicts.push(...answer.conflicts);
    total.days.push(day);
  }
  return total;
}
