import { describe, expect, it } from 'vitest';
import type { StatementLine } from './lines.js';
import { evolveStatement, importStatement, initialStatementState } from './statement.js';

const line = (over: Partial<StatementLine> = {}): StatementLine => ({
  source: 'BANK',
  providerReference: 'E-1',
  reference: 'APP-1',
  direction: 'IN',
  amount: 250_000,
  account: null,
  occurredAt: '2026-12-01T10:00:00+01:00',
  ...over,
});

const fold = (events: ReturnType<typeof importStatement>['events']) =>
  events.reduce(evolveStatement, initialStatementState());

describe('importStatement', () => {
  it('records a statement imported twice once', () => {
    const command = {
      source: 'BANK' as const,
      day: '2026-12-01',
      lines: [line(), line({ providerReference: 'E-2' })],
    };
    const first = importStatement(initialStatementState(), command);
    expect(first.answer).toEqual({ recorded: 2, known: 0, conflicts: [] });
    const second = importStatement(fold(first.events), command);
    expect(second.events).toEqual([]);
    expect(second.answer).toEqual({ recorded: 0, known: 2, conflicts: [] });
  });

  it('refuses a known line with other figures, naming it, and records the rest', () => {
    const first = importStatement(initialStatementState(), {
      source: 'BANK',
      day: '2026-12-01',
      lines: [line()],
    });
    const again = importStatement(fold(first.events), {
      source: 'BANK',
      day: '2026-12-01',
      lines: [line({ amount: 1 }), line({ providerReference: 'E-3' })],
    });
    expect(again.answer).toEqual({ recorded: 1, known: 0, conflicts: ['BANK:E-1'] });
  });

  it('refuses a line of another day or source', () => {
    expect(() =>
      importStatement(initialStatementState(), {
        source: 'BANK',
        day: '2026-12-02',
        lines: [line()],
      }),
    ).toThrow('Une ligne du relevé n’est pas de ce jour ou de cette source');
  });
});
