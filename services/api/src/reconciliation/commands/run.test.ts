import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandPipeline, EventStore } from '@filiere/event-store';
import { narrowDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../../database.js';
import { product } from '../../modules.js';
import {
  DEFAULT_WINDOW_MS,
  beninDay,
  dayFigures,
  emptyFigures,
  exceptionCandidates,
  nextDay,
  reconcile,
  type DayFigures,
  type LedgerMovement,
  type StatementLine,
} from '../domain/index.js';
import type { ReconciliationTables } from '../tables.js';
import { LOOKBACK_DAYS } from './context.js';
import { runReconciliation } from './run.js';

/** A small deterministic generator: the same data on every run. */
const generator = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};

interface LineRow {
  line_key: string;
  source: string;
  day: string;
  provider_reference: string;
  reference: string | null;
  direction: 'IN' | 'OUT';
  amount: number;
  account: string | null;
  occurred_at: Date;
}

interface MovementRow {
  movement_key: string;
  channel: string;
  kind: string;
  reference: string;
  provider_reference: string | null;
  direction: 'IN' | 'OUT';
  amount: number;
  account: string | null;
  status: string;
  moved_at: Date | null;
}

const TODAY = '2026-12-03';
const DAY = '2026-12-02';

describe('a reconciliation run (real PostgreSQL)', () => {
  const testDb = useTestDatabase<Database>();
  const db = () => narrowDb<Database>()(testDb.db);
  let pipeline: CommandPipeline;

  beforeAll(() => {
    pipeline = new CommandPipeline(new EventStore(testDb.db, product.catalogue), {
      batchMax: 64,
      batchWaitMs: 1,
    });
    for (const stream of product.streams) pipeline.registerStreamType(stream);
  });
  afterAll(async () => pipeline?.close());

  it('finds the same pairs, figures and exceptions as the matching rules on everything it reads', async () => {
    const random = generator(37);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const base = Date.parse(`${DAY}T00:00:00+01:00`);
    const instant = (spanDays: number) =>
      new Date(base - (spanDays - 1) * 86_400_000 + Math.floor(random() * spanDays * 86_400_000));
    const amounts = [1_000, 1_500, 2_000];
    const accounts = ['+22990000001', '+22990000002', null];

    // Clean pairs (most of a real day), then names shared, reused, missing or pointing
    // elsewhere, lines with no reference, the other direction, the other channel, and
    // movements outside the run's window.
    const lines: LineRow[] = [];
    const movements: MovementRow[] = [];
    for (let i = 0; i < 300; i++) {
      const at = instant(3);
      const amount = pick(amounts) + (random() < 0.05 ? 1 : 0);
      const byProvider = random() < 0.3;
      lines.push({
        line_key: `BANK:L${i}`,
        source: 'BANK',
        day: beninDay(at),
        provider_reference: `L${i}`,
        reference: byProvider ? null : `APP-${i}`,
        direction: 'IN',
        amount,
        account: pick(accounts),
        occurred_at: new Date(at.getTime() + 2_000),
      });
      movements.push({
        movement_key: `supply:APP-${i}`,
        channel: 'BANK',
        kind: 'SUPPLY',
        reference: `APP-${i}`,
        provider_reference: byProvider ? `L${i}` : null,
        direction: 'IN',
        amount: pick(amounts),
        account: pick(accounts),
        status: 'SUCCESS',
        moved_at: at,
      });
      if (i % 10 === 0) movements[movements.length - 1]!.amount = amount;
    }
    for (let i = 300; i < 600; i++) {
      const at = instant(4);
      lines.push({
        line_key: `BANK:L${i}`,
        source: 'BANK',
        day: random() < 0.9 ? beninDay(at) : nextDay(beninDay(at)),
        provider_reference: `L${i}`,
        reference: random() < 0.3 ? null : `APP-${Math.floor(random() * 700)}`,
        direction: random() < 0.9 ? ('IN' as const) : ('OUT' as const),
        amount: pick(amounts),
        account: pick(accounts),
        occurred_at: at,
      });
      const reference = `APP-${Math.floor(random() * 700)}`;
      movements.push({
        movement_key: `supply:M${i}`,
        channel: random() < 0.9 ? 'BANK' : 'PROVIDER',
        kind: 'SUPPLY',
        reference,
        provider_reference: random() < 0.3 ? `L${Math.floor(random() * 700)}` : null,
        direction: random() < 0.9 ? ('IN' as const) : ('OUT' as const),
        amount: pick(amounts),
        account: pick(accounts),
        status: 'SUCCESS',
        moved_at: random() < 0.05 ? null : instant(4),
      });
    }
    // Equal amounts where the rules pair by reference: the share PostgreSQL settles.
    for (let i = 0; i < 300; i += 2) movements[i]!.amount = lines[i]!.amount;
    await db().insertInto('reconciliation_lines').values(lines).execute();
    await db().insertInto('reconciliation_movements').values(movements).execute();
    // Links made by hand: a clean pair's line to another movement, and a shared one.
    const links = [
      { line: 'BANK:L2', movement: 'supply:APP-4' },
      { line: 'BANK:L310', movement: 'supply:APP-6' },
      { line: 'BANK:L8', movement: 'supply:M320' },
    ];
    const at = new Date(`${DAY}T12:00:00Z`);
    await db()
      .insertInto('reconciliation_exceptions')
      .values(
        links.map((link, n) => ({
          exception_id: `linked-${n}`,
          kind: 'MISSING_IN_LEDGER',
          source: 'BANK',
          day: DAY,
          direction: 'IN',
          amount: 1_000,
          difference: 0,
          line_key: link.line,
          status: 'LINKED',
          linked_line_key: link.line,
          linked_movement_key: link.movement,
          opened_at: at,
          updated_at: at,
        })),
      )
      .execute();

    // What the rules find on every line and movement the run reads.
    const from = nextDay(TODAY, -LOOKBACK_DAYS);
    const since = Date.parse(`${from}T00:00:00+01:00`);
    const until = Date.parse(`${nextDay(TODAY)}T00:00:00+01:00`);
    const allLines: StatementLine[] = lines
      .filter((l) => l.day >= from && l.day <= TODAY)
      .map((l) => ({
        source: 'BANK',
        providerReference: l.provider_reference,
        reference: l.reference,
        direction: l.direction,
        amount: l.amount,
        account: l.account,
        occurredAt: l.occurred_at.toISOString(),
      }));
    const allMovements: LedgerMovement[] = movements
      .filter((m) => {
        const moved = m.moved_at?.getTime();
        return m.channel === 'BANK' && moved !== undefined && moved >= since && moved < until;
      })
      .map((m) => ({
        key: m.movement_key,
        channel: 'BANK',
        kind: 'SUPPLY',
        reference: m.reference,
        providerReference: m.provider_reference,
        direction: m.direction,
        amount: m.amount,
        account: m.account,
        occurredAt: m.moved_at!.toISOString(),
      }));
    const expected = reconcile(allLines, allMovements, {
      windowMs: DEFAULT_WINDOW_MS,
      links: links.map((l) => ({ lineKey: l.line, movementKey: l.movement })),
    });
    const byDay = dayFigures('BANK', allLines, allMovements, expected);
    if (!byDay.has(TODAY)) byDay.set(TODAY, emptyFigures());
    const expectedFigures = [...byDay]
      .filter(([d]) => d >= from && d <= TODAY)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    const expectedExceptions = exceptionCandidates(
      'BANK',
      allLines,
      allMovements,
      expected,
      TODAY,
    ).sort((a, b) => (a.exceptionId < b.exceptionId ? -1 : 1));
    // The data exercises every path: pairs by reference and by window, links, duplicates,
    // differences, lines and movements alone.
    expect(new Set(expected.matches.map((m) => m.rule))).toEqual(
      new Set(['REFERENCE', 'WINDOW', 'MANUAL']),
    );
    expect(new Set(expectedExceptions.map((e) => e.kind))).toEqual(
      new Set(['MISSING_IN_LEDGER', 'MISSING_AT_PROVIDER', 'DUPLICATE', 'AMOUNT_MISMATCH']),
    );

    const result = await runReconciliation(
      {
        db: narrowDb<ReconciliationTables>()(testDb.db),
        pipeline,
        limits: { maxCommandAmount: Number.MAX_SAFE_INTEGER, maxBalance: Number.MAX_SAFE_INTEGER },
        clock: () => new Date(`${TODAY}T06:00:00Z`),
        windowMs: DEFAULT_WINDOW_MS,
      },
      'BANK',
      TODAY,
    );
    expect(result).toEqual({
      source: 'BANK',
      day: TODAY,
      matched: expected.matches.length,
      unmatchedLines: expected.unmatchedLines.length,
      unmatchedMovements: expected.unmatchedMovements.length,
      opened: expectedExceptions.length,
    });

    const closed = await db()
      .selectFrom('events')
      .select(sql<{ day: string; figures: DayFigures }>`data`.as('data'))
      .where('type', '=', 'DayReconciled')
      .orderBy('position')
      .execute();
    expect(closed.map((e) => [e.data.day, e.data.figures])).toEqual(expectedFigures);
    const opened = await db()
      .selectFrom('events')
      .select(sql<Record<string, unknown>>`data`.as('data'))
      .where('type', '=', 'ExceptionOpened')
      .execute();
    expect(
      opened
        .map((e) => e.data)
        .sort((a, b) => ((a.exceptionId as string) < (b.exceptionId as string) ? -1 : 1)),
    ).toMatchObject(
      expectedExceptions.map((c) => ({
        exceptionId: c.exceptionId,
        kind: c.kind,
        day: c.day,
        amount: c.amount,
        difference: c.difference,
        lineKey: c.lineKey,
        movementKey: c.movementKey,
      })),
    );
  });
});
