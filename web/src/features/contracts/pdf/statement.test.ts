import { describe, expect, it } from 'vitest';
import { defaultStatementPeriod, isStatementLink, statementPeriodSchema } from './statement.js';

describe('the statement period form', () => {
  const now = new Date('2026-11-23T10:00:00');

  it('defaults to the 1st of January of this year through today', () => {
    expect(defaultStatementPeriod(now)).toEqual({ from: '2026-01-01', to: '2026-11-23' });
  });

  it('refuses a start after the end, an end after today, and empty days', () => {
    const schema = statementPeriodSchema(now);
    expect(schema.safeParse({ from: '2026-01-01', to: '2026-11-23' }).success).toBe(true);
    const reversed = schema.safeParse({ from: '2026-11-01', to: '2026-10-01' });
    expect(reversed.error?.issues).toEqual([
      expect.objectContaining({ path: ['from'], message: 'contracts:statement.order' }),
    ]);
    const future = schema.safeParse({ from: '2026-01-01', to: '2026-11-24' });
    expect(future.error?.issues[0]).toMatchObject({
      path: ['to'],
      message: 'contracts:statement.futureEnd',
    });
    expect(schema.safeParse({ from: '', to: '2026-11-23' }).error?.issues[0]?.message).toBe(
      'validation:required',
    );
  });

  it('tells a statement link from a contract link', () => {
    expect(isStatementLink('/api/contracts/pdf/s-0123-20260101-20261123-abc.mac')).toBe(true);
    expect(isStatementLink('/api/contracts/pdf/c-0123-abc.mac')).toBe(false);
  });
});
