import { channelOf, lineKey, type LedgerMovement, type StatementLine } from './lines.js';

/** How a pair was made: the rule that found it, or a finance user's hand. */
export type MatchRule = 'REFERENCE' | 'WINDOW' | 'MANUAL';

export interface Match {
  /** Positions of the pair in the lists given to `reconcile`. */
  lineIndex: number;
  movementIndex: number;
  lineKey: string;
  movementKey: string;
  rule: MatchRule;
  /** The statement's amount minus the ledger's (0 when they agree). */
  difference: number;
}

/** Why a statement line found no movement. */
export type UnmatchedLineKind = 'MISSING_IN_LEDGER' | 'DUPLICATE';

export interface UnmatchedLine {
  index: number;
  line: StatementLine;
  key: string;
  kind: UnmatchedLineKind;
}

export interface Reconciliation {
  matches: Match[];
  /** Money the outside moved that the ledger did not (or a second line for one movement). */
  unmatchedLines: UnmatchedLine[];
  /** Movements the ledger recorded that no statement line shows. */
  unmatchedMovements: LedgerMovement[];
}

export interface MatchOptions {
  /** How far apart (ms) a line and a movement of the same amount and account may be. */
  windowMs: number;
  /** Pairs a finance user linked by hand: kept as they are, before any rule. */
  links?: readonly { lineKey: string; movementKey: string }[];
}

/** One hour either side: a provider stamps a payment within minutes of the ledger's credit. */
export const DEFAULT_WINDOW_MS = 3_600_000;

const windowKey = (channel: string, direction: string, amount: number, account: string) =>
  `${channel}|${direction}|${amount}|${account}`;

function push<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/**
 * Pairs statement lines with ledger movements, one to one, never reusing either side:
 *
 * 1. links made by hand;
 * 2. by reference: the provider's reference the ledger recorded, or our reference the line
 *    carries, on the same channel and direction (a different amount still pairs, and the
 *    pair carries the difference);
 * 3. by amount, account and time window: the nearest movement in time, same channel,
 *    direction, amount and account, at most `windowMs` apart.
 *
 * What is left is unmatched: a line naming a movement another line already took is a
 * DUPLICATE, any other line MISSING_IN_LEDGER. Lines are taken in time order (then by key),
 * so the result depends only on the sets given, not on their order.
 */
export function reconcile(
  lines: readonly StatementLine[],
  movements: readonly LedgerMovement[],
  options: MatchOptions,
): Reconciliation {
  const n = lines.length;
  const keys = new Array<string>(n);
  const times = new Float64Array(n);
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    keys[i] = lineKey(lines[i]!);
    times[i] = Date.parse(lines[i]!.occurredAt);
    order[i] = i;
  }
  order.sort((a, b) => times[a]! - times[b]! || (keys[a]! < keys[b]! ? -1 : 1));

  const movementTimes = new Float64Array(movements.length);
  // Per channel and direction, movements by our reference and by the provider's: keyed by the
  // references themselves (no concatenated key per movement: a run holds a million of them).
  const byReference = new Map<string, Map<string, number | number[]>>();
  const index = (side: string, reference: string, j: number) => {
    let map = byReference.get(side);
    if (map === undefined) byReference.set(side, (map = new Map()));
    const known = map.get(reference);
    if (known === undefined) map.set(reference, j);
    else if (typeof known === 'number') map.set(reference, [known, j]);
    else known.push(j);
  };
  for (let j = 0; j < movements.length; j++) {
    const m = movements[j]!;
    movementTimes[j] = Date.parse(m.occurredAt);
    index(`${m.channel}|${m.direction}|r`, m.reference, j);
    if (m.providerReference !== null)
      index(`${m.channel}|${m.direction}|p`, m.providerReference, j);
  }
  const lookup = (side: string, reference: string | null): readonly number[] => {
    if (reference === null) return [];
    const found = byReference.get(side)?.get(reference);
    return found === undefined ? [] : typeof found === 'number' ? [found] : found;
  };
  const lineUsed = new Uint8Array(n);
  const movementUsed = new Uint8Array(movements.length);
  const matches: Match[] = [];
  const pair = (i: number, j: number, rule: MatchRule) => {
    lineUsed[i] = 1;
    movementUsed[j] = 1;
    matches.push({
      lineIndex: i,
      movementIndex: j,
      lineKey: keys[i]!,
      movementKey: movements[j]!.key,
      rule,
      difference: lines[i]!.amount - movements[j]!.amount,
    });
  };

  if (options.links?.length) {
    const lineIndex = new Map<string, number>();
    for (let i = 0; i < n; i++) lineIndex.set(keys[i]!, i);
    const movementIndex = new Map<string, number>();
    for (let j = 0; j < movements.length; j++) movementIndex.set(movements[j]!.key, j);
    for (const link of options.links) {
      const i = lineIndex.get(link.lineKey);
      const j = movementIndex.get(link.movementKey);
      if (i === undefined || j === undefined || lineUsed[i] || movementUsed[j]) continue;
      pair(i, j, 'MANUAL');
    }
  }

  // Lines that name a movement by reference but find it taken: duplicates.
  const namedTaken = new Uint8Array(n);
  for (const i of order) {
    if (lineUsed[i]) continue;
    const line = lines[i]!;
    const prefix = `${channelOf(line.source)}|${line.direction}|`;
    const byProvider = lookup(`${prefix}p`, line.providerReference);
    const byOurs = lookup(`${prefix}r`, line.reference);
    if (byProvider.length === 0 && byOurs.length === 0) continue;
    const free = byProvider.find((j) => !movementUsed[j]) ?? byOurs.find((j) => !movementUsed[j]);
    if (free === undefined) namedTaken[i] = 1;
    else pair(i, free, 'REFERENCE');
  }

  const byWindow = new Map<string, number[]>();
  for (let j = 0; j < movements.length; j++) {
    const m = movements[j]!;
    if (movementUsed[j] || m.account === null) continue;
    push(byWindow, windowKey(m.channel, m.direction, m.amount, m.account), j);
  }
  for (const list of byWindow.values()) {
    list.sort((a, b) => movementTimes[a]! - movementTimes[b]! || (a < b ? -1 : 1));
  }
  for (const i of order) {
    const line = lines[i]!;
    if (lineUsed[i] || namedTaken[i] || line.account === null) continue;
    const list = byWindow.get(
      windowKey(channelOf(line.source), line.direction, line.amount, line.account),
    );
    if (list === undefined) continue;
    let best = -1;
    let bestGap = Infinity;
    for (const j of list) {
      if (movementUsed[j]) continue;
      const gap = Math.abs(movementTimes[j]! - times[i]!);
      if (gap <= options.windowMs && gap < bestGap) {
        best = j;
        bestGap = gap;
      }
    }
    if (best >= 0) pair(i, best, 'WINDOW');
  }

  const unmatchedLines: UnmatchedLine[] = [];
  for (const i of order) {
    if (lineUsed[i]) continue;
    unmatchedLines.push({
      index: i,
      line: lines[i]!,
      key: keys[i]!,
      kind: namedTaken[i] ? 'DUPLICATE' : 'MISSING_IN_LEDGER',
    });
  }
  const unmatchedMovements: LedgerMovement[] = [];
  for (let j = 0; j < movements.length; j++) {
    if (!movementUsed[j]) unmatchedMovements.push(movements[j]!);
  }
  return { matches, unmatchedLines, unmatchedMovements };
}
