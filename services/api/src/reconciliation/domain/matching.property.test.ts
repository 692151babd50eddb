import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exceptionCandidates } from './close.js';
import { channelOf, lineKey, type LedgerMovement, type StatementLine } from './lines.js';
import { reconcile } from './matching.js';

const BASE = Date.parse('2026-12-01T08:00:00Z');
const WINDOW = 3_600_000;

// Few references, amounts and accounts, so that lines and movements collide often: the
// rules must still pair one to one.
const reference = fc.constantFrom('APP-1', 'APP-2', 'APP-3', 'W-1', 'W-2', null);
const providerRef = fc.constantFrom('tx-1', 'tx-2', 'tx-3', 'tx-4', 'tx-5', 'tx-6');
const amount = fc.constantFrom(1_000, 2_500, 5_000);
const account = fc.constantFrom('+22997000001', '+22997000002', null);
const at = fc
  .integer({ min: 0, max: 3 * 86_400_000 })
  .map((ms) => new Date(BASE + ms).toISOString());
const direction = fc.constantFrom('IN' as const, 'OUT' as const);

const line = fc.record({
  source: fc.constantFrom('FEDAPAY' as const, 'BANK' as const),
  providerReference: providerRef,
  reference,
  direction,
  amount,
  account,
  occurredAt: at,
});
const movement = fc.record({
  channel: fc.constantFrom('PROVIDER' as const, 'BANK' as const),
  kind: fc.constantFrom('SUPPLY' as const, 'PAYOUT' as const),
  reference: fc.constantFrom('APP-1', 'APP-2', 'APP-3', 'W-1', 'W-2', 'W-3'),
  providerReference: fc.option(providerRef, { nil: null }),
  direction,
  amount,
  account,
  occurredAt: at,
});

/** Lines are unique by source + provider reference (the statement's import makes them so). */
const lines = fc.uniqueArray(line, { selector: (l) => lineKey(l), maxLength: 25 });
const movements = fc
  .array(movement, { maxLength: 25 })
  .map((ms) => ms.map((m, i): LedgerMovement => ({ ...m, key: `m${i}` })));

function shuffle<T>(list: readonly T[], seed: number): T[] {
  const out = [...list];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('reconcile (property)', () => {
  it('matches each line and each movement at most once, and accounts for every one', () => {
    fc.assert(
      fc.property(lines, movements, (ls, ms) => {
        const r = reconcile(ls, ms, { windowMs: WINDOW });
        const matchedLines = r.matches.map((m) => m.lineKey);
        const matchedMovements = r.matches.map((m) => m.movementKey);
        expect(new Set(matchedLines).size).toBe(matchedLines.length);
        expect(new Set(matchedMovements).size).toBe(matchedMovements.length);
        // Every line is either matched or an exception candidate, never both.
        const unmatched = r.unmatchedLines.map((u) => u.key);
        expect(new Set([...matchedLines, ...unmatched]).size).toBe(ls.length);
        expect(matchedLines.length + unmatched.length).toBe(ls.length);
        const left = r.unmatchedMovements.map((m) => m.key);
        expect(new Set([...matchedMovements, ...left]).size).toBe(ms.length);
        expect(matchedMovements.length + left.length).toBe(ms.length);
      }),
    );
  });

  it('pairs only what its rule allows', () => {
    fc.assert(
      fc.property(lines, movements, (ls, ms) => {
        const byLine = new Map(ls.map((l) => [lineKey(l), l]));
        const byKey = new Map(ms.map((m) => [m.key, m]));
        for (const match of reconcile(ls, ms, { windowMs: WINDOW }).matches) {
          const l = byLine.get(match.lineKey)!;
          const m = byKey.get(match.movementKey)!;
          expect(m.channel).toBe(channelOf(l.source));
          expect(m.direction).toBe(l.direction);
          expect(match.difference).toBe(l.amount - m.amount);
          if (match.rule === 'REFERENCE') {
            expect(m.providerReference === l.providerReference || m.reference === l.reference).toBe(
              true,
            );
          } else {
            expect(match.rule).toBe('WINDOW');
            expect(m.amount).toBe(l.amount);
            expect(m.account).not.toBeNull();
            expect(m.account).toBe(l.account);
            expect(
              Math.abs(Date.parse(m.occurredAt) - Date.parse(l.occurredAt)),
            ).toBeLessThanOrEqual(WINDOW);
          }
        }
      }),
    );
  });

  it('gives the same pairs whatever the order of its inputs', () => {
    fc.assert(
      fc.property(lines, movements, fc.nat(), (ls, ms, seed) => {
        const a = reconcile(ls, ms, { windowMs: WINDOW });
        const b = reconcile(shuffle(ls, seed), ms, { windowMs: WINDOW });
        const pairs = (r: typeof a) => r.matches.map((m) => `${m.lineKey}>${m.movementKey}`).sort();
        expect(pairs(b)).toEqual(pairs(a));
      }),
    );
  });

  it('keeps links made by hand, and never reuses their movement', () => {
    fc.assert(
      fc.property(lines, movements, fc.nat(), fc.nat(), (ls, ms, i, j) => {
        fc.pre(ls.length > 0 && ms.length > 0);
        const link = { lineKey: lineKey(ls[i % ls.length]!), movementKey: ms[j % ms.length]!.key };
        const r = reconcile(ls, ms, { windowMs: WINDOW, links: [link] });
        expect(r.matches).toContainEqual(expect.objectContaining({ ...link, rule: 'MANUAL' }));
        expect(r.matches.filter((m) => m.movementKey === link.movementKey)).toHaveLength(1);
      }),
    );
  });

  it('calls every past unmatched item and every difference an exception, once', () => {
    fc.assert(
      fc.property(lines, movements, (ls, ms) => {
        const bank = ls.filter((l) => l.source === 'BANK');
        const r = reconcile(bank, ms, { windowMs: WINDOW });
        const today = '2026-12-10';
        const candidates = exceptionCandidates('BANK', bank, ms, r, today);
        const ids = candidates.map((c) => c.exceptionId);
        expect(new Set(ids).size).toBe(ids.length);
        const expected =
          r.unmatchedLines.length +
          r.unmatchedMovements.filter((m) => m.channel === 'BANK').length +
          r.matches.filter((m) => m.difference !== 0).length;
        expect(candidates).toHaveLength(expected);
      }),
    );
  });
});

const supplyLine = (over: Partial<StatementLine>): StatementLine => ({
  source: 'FEDAPAY',
  providerReference: 'tx-1',
  reference: 'APP-1',
  direction: 'IN',
  amount: 5_000,
  account: '+22997000001',
  occurredAt: '2026-12-01T09:00:00+01:00',
  ...over,
});
const supply = (over: Partial<LedgerMovement>): LedgerMovement => ({
  key: 'supply:APP-1',
  channel: 'PROVIDER',
  kind: 'SUPPLY',
  reference: 'APP-1',
  providerReference: 'tx-1',
  direction: 'IN',
  amount: 5_000,
  account: '+22997000001',
  occurredAt: '2026-12-01T08:59:30Z',
  ...over,
});

describe('reconcile', () => {
  it('names a second line for a movement already taken a duplicate', () => {
    const r = reconcile(
      [
        supplyLine({}),
        supplyLine({ providerReference: 'tx-9', occurredAt: '2026-12-01T09:05:00+01:00' }),
      ],
      [supply({})],
      { windowMs: WINDOW },
    );
    expect(r.matches).toMatchObject([
      { lineKey: 'FEDAPAY:tx-1', movementKey: 'supply:APP-1', rule: 'REFERENCE', difference: 0 },
    ]);
    expect(r.unmatchedLines.map((u) => [u.key, u.kind])).toEqual([['FEDAPAY:tx-9', 'DUPLICATE']]);
  });

  it('pairs by amount, account and time when no reference is shared, nearest first', () => {
    const r = reconcile(
      [supplyLine({ providerReference: 'tx-x', reference: null })],
      [
        supply({
          key: 'supply:far',
          reference: 'far',
          providerReference: null,
          occurredAt: '2026-12-01T07:30:00Z',
        }),
        supply({
          key: 'supply:near',
          reference: 'near',
          providerReference: null,
          occurredAt: '2026-12-01T08:10:00Z',
        }),
      ],
      { windowMs: WINDOW },
    );
    expect(r.matches).toMatchObject([
      { lineKey: 'FEDAPAY:tx-x', movementKey: 'supply:near', rule: 'WINDOW', difference: 0 },
    ]);
  });

  it('waits a day before calling a lone line or movement an exception', () => {
    const lone = supplyLine({ providerReference: 'tx-2', reference: 'APP-2', account: null });
    const r = reconcile([lone], [], { windowMs: WINDOW });
    expect(exceptionCandidates('FEDAPAY', [lone], [], r, '2026-12-01')).toEqual([]);
    expect(exceptionCandidates('FEDAPAY', [lone], [], r, '2026-12-02')).toMatchObject([
      { kind: 'MISSING_IN_LEDGER', day: '2026-12-01', amount: 5_000, lineKey: 'FEDAPAY:tx-2' },
    ]);
  });
});
