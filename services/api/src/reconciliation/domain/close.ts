import { createHash } from 'node:crypto';
import type { DayFigures, ExceptionKind } from './events.js';
import {
  beninDay,
  channelOf,
  type Direction,
  type LedgerMovement,
  type Source,
  type StatementLine,
} from './lines.js';
import type { Reconciliation } from './matching.js';

/** An exception the matching calls for (opened once: its id derives from its kind and item). */
export interface ExceptionCandidate {
  exceptionId: string;
  kind: ExceptionKind;
  source: Source;
  day: string;
  direction: Direction;
  amount: number;
  difference: number;
  lineKey: string | null;
  movementKey: string | null;
  reference: string | null;
  account: string | null;
}

export const exceptionId = (kind: ExceptionKind, itemKey: string): string =>
  createHash('sha256').update(`${kind}|${itemKey}`).digest('hex').slice(0, 32);

export const emptyFigures = (): DayFigures => ({
  lines: 0,
  linesAmount: 0,
  movements: 0,
  movementsAmount: 0,
  matched: 0,
  matchedAmount: 0,
  unmatchedProvider: 0,
  unmatchedProviderAmount: 0,
  unmatchedLedger: 0,
  unmatchedLedgerAmount: 0,
  differences: 0,
  differencesAmount: 0,
  duplicates: 0,
});

/**
 * Each day's close for one source: lines and movements of the day, the pairs (counted on the
 * line's day), the lines no movement explains (money taken, not credited; duplicates among
 * them), the movements no line shows (credited or paid, not seen outside), and the pairs
 * whose amounts differ (sum of the absolute differences).
 */
export function dayFigures(
  source: Source,
  lines: readonly StatementLine[],
  movements: readonly LedgerMovement[],
  result: Reconciliation,
): Map<string, DayFigures> {
  const days = new Map<string, DayFigures>();
  const of = (day: string) => {
    let f = days.get(day);
    if (f === undefined) days.set(day, (f = emptyFigures()));
    return f;
  };
  // A run holds up to a million lines: their days are computed once, as small numbers.
  const names = new Map<number, string>();
  const dayOf = (instant: string) => {
    const n = Math.floor((Date.parse(instant) + 3_600_000) / 86_400_000);
    let name = names.get(n);
    if (name === undefined) names.set(n, (name = beninDay(instant)));
    return name;
  };
  const lineDays = new Array<string>(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const f = of((lineDays[i] = dayOf(line.occurredAt)));
    f.lines++;
    f.linesAmount += line.amount;
  }
  const channel = channelOf(source);
  for (const m of movements) {
    if (m.channel !== channel) continue;
    const f = of(dayOf(m.occurredAt));
    f.movements++;
    f.movementsAmount += m.amount;
  }
  for (const match of result.matches) {
    const f = of(lineDays[match.lineIndex]!);
    f.matched++;
    f.matchedAmount += lines[match.lineIndex]!.amount;
    if (match.difference !== 0) {
      f.differences++;
      f.differencesAmount += Math.abs(match.difference);
    }
  }
  for (const u of result.unmatchedLines) {
    const f = of(lineDays[u.index]!);
    f.unmatchedProvider++;
    f.unmatchedProviderAmount += u.line.amount;
    if (u.kind === 'DUPLICATE') f.duplicates++;
  }
  for (const m of result.unmatchedMovements) {
    if (m.channel !== channel) continue;
    const f = of(dayOf(m.occurredAt));
    f.unmatchedLedger++;
    f.unmatchedLedgerAmount += m.amount;
  }
  return days;
}

/**
 * The exceptions a reconciliation run as of `today` calls for. A pair whose amounts differ
 * and a duplicate line are exceptions at once; a line or a movement left alone becomes one
 * only once the next day is over (its day is before `today`), since a provider may report
 * a late payment, or the ledger credit it, the next day.
 */
export function exceptionCandidates(
  source: Source,
  lines: readonly StatementLine[],
  movements: readonly LedgerMovement[],
  result: Reconciliation,
  today: string,
): ExceptionCandidate[] {
  const out: ExceptionCandidate[] = [];
  for (const match of result.matches) {
    if (match.difference === 0) continue;
    const line = lines[match.lineIndex]!;
    const movement = movements[match.movementIndex]!;
    out.push({
      exceptionId: exceptionId('AMOUNT_MISMATCH', match.lineKey),
      kind: 'AMOUNT_MISMATCH',
      source,
      day: beninDay(line.occurredAt),
      direction: line.direction,
      amount: line.amount,
      difference: match.difference,
      lineKey: match.lineKey,
      movementKey: match.movementKey,
      reference: movement.reference,
      account: line.account,
    });
  }
  for (const u of result.unmatchedLines) {
    const day = beninDay(u.line.occurredAt);
    if (u.kind === 'MISSING_IN_LEDGER' && day >= today) continue;
    out.push({
      exceptionId: exceptionId(u.kind, u.key),
      kind: u.kind,
      source,
      day,
      direction: u.line.direction,
      amount: u.line.amount,
      difference: 0,
      lineKey: u.key,
      movementKey: null,
      reference: u.line.reference,
      account: u.line.account,
    });
  }
  const channel = channelOf(source);
  for (const m of result.unmatchedMovements) {
    const day = beninDay(m.occurredAt);
    if (m.channel !== channel || day >= today) continue;
    out.push({
      exceptionId: exceptionId('MISSING_AT_PROVIDER', m.key),
      kind: 'MISSING_AT_PROVIDER',
      source,
      day,
      direction: m.direction,
      amount: m.amount,
      difference: 0,
      lineKey: null,
      movementKey: m.key,
      reference: m.reference,
      account: m.account,
    });
  }
  return out;
}
