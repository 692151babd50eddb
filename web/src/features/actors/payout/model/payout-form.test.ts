import { describe, expect, it } from 'vitest';
import '../../../../shared/validation/rules.js';
import {
  defaultsOf,
  payoutMsg,
  payoutRequestSchema,
  rejectSchema,
  toAccount,
} from './payout-form.js';

const current = {
  momoAccountNumber: '+2290197000001',
  bankName: null,
  bankAccountNumber: null,
};
const messages = (input: unknown) => {
  const result = payoutRequestSchema(current).safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
};

describe('the payout change request form', () => {
  it('given the current account unchanged, then it says the account is identical', () => {
    expect(messages(defaultsOf(current))).toEqual([`momoAccountNumber:${payoutMsg.identical}`]);
  });

  it('given a new mobile money number (8 or 10 digits), then it gives the E.164 account', () => {
    for (const momo of ['66112233', '0166112233']) {
      const values = { ...defaultsOf(current), momoAccountNumber: momo };
      expect(messages(values)).toEqual([]);
      expect(toAccount(payoutRequestSchema(current).parse(values))).toEqual({
        momoAccountNumber: '+2290166112233',
        bankName: null,
        bankAccountNumber: null,
      });
    }
  });

  it('given a bank without its account number (or the reverse), then the missing one is flagged', () => {
    expect(messages({ ...defaultsOf(current), bankName: 'Ecobank Bénin' })).toEqual([
      `bankAccountNumber:${payoutMsg.bankBoth}`,
    ]);
    expect(messages({ ...defaultsOf(current), bankAccountNumber: 'BJ01' })).toEqual([
      `bankName:${payoutMsg.bankBoth}`,
    ]);
  });

  it('given a bad number, then the phone message; empty, then required', () => {
    expect(messages({ ...defaultsOf(current), momoAccountNumber: '123' })).toEqual([
      'momoAccountNumber:validation:phone',
    ]);
    expect(messages({ ...defaultsOf(current), momoAccountNumber: '' })[0]).toBe(
      'momoAccountNumber:validation:required',
    );
  });

  it('a rejection needs a reason', () => {
    expect(rejectSchema.safeParse({ reason: '  ' }).success).toBe(false);
    expect(rejectSchema.safeParse({ reason: 'Numéro non vérifié' }).success).toBe(true);
  });
});
