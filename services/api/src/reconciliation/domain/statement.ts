import { ValidationError } from '@filiere/platform';
import { reconciliationEvent, type ReconciliationEvent } from './events.js';
import { beninDay, lineKey, type Source, type StatementLine } from './lines.js';

/** The folded state of `recstatement-<source>-<day>`: each line recorded, by its key. */
export interface StatementState {
  lines: ReadonlyMap<string, string>;
}

export const statementStreamId = (source: Source, day: string): string =>
  `recstatement-${source}-${day}`;

export const initialStatementState = (): StatementState => ({ lines: new Map() });

/** What makes two lines with one key the same line. */
export const lineFingerprint = (line: StatementLine): string =>
  JSON.stringify([
    line.direction,
    line.amount,
    line.reference,
    line.account,
    Date.parse(line.occurredAt),
  ]);

export function evolveStatement(state: StatementState, event: ReconciliationEvent): StatementState {
  if (event.type !== 'StatementLineRecorded') return state;
  const lines = new Map(state.lines);
  lines.set(lineKey(event.data.line), lineFingerprint(event.data.line));
  return { lines };
}

export const statementStream = {
  category: 'recstatement',
  initialState: initialStatementState,
  evolve: evolveStatement,
};

export interface ImportAnswer {
  /** Lines recorded now. */
  recorded: number;
  /** Lines already recorded, identical: left as they were. */
  known: number;
  /** Lines whose key was recorded with other figures: refused, listed by key. */
  conflicts: string[];
}

/**
 * Records a day's statement lines of one source. A line is identified by its source and the
 * provider's reference: one already recorded with the same figures changes nothing (a
 * statement imported twice appends nothing), one recorded with other figures is refused and
 * named (the provider's first word stands; finance sees the conflict).
 */
export function importStatement(
  state: StatementState,
  command: { source: Source; day: string; lines: readonly StatementLine[] },
): { events: ReconciliationEvent[]; answer: ImportAnswer } {
  const seen = new Map(state.lines);
  const events: ReconciliationEvent[] = [];
  const answer: ImportAnswer = { recorded: 0, known: 0, conflicts: [] };
  for (const line of command.lines) {
    if (line.source !== command.source || beninDay(line.occurredAt) !== command.day) {
      throw new ValidationError('Une ligne du relevé n’est pas de ce jour ou de cette source');
    }
    if (!Number.isSafeInteger(line.amount) || line.amount < 0) {
      throw new ValidationError('Montant invalide dans le relevé');
    }
    const key = lineKey(line);
    const fingerprint = lineFingerprint(line);
    const known = seen.get(key);
    if (known === fingerprint) {
      answer.known++;
      continue;
    }
    if (known !== undefined) {
      answer.conflicts.push(key);
      continue;
    }
    seen.set(key, fingerprint);
    events.push(reconciliationEvent('StatementLineRecorded', { day: command.day, line }));
    answer.recorded++;
  }
  return { events, answer };
}
