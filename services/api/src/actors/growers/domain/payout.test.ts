import { describe, expect, it } from 'vitest';
import { asksPayoutChange, momoOperator } from './payout.js';

const current = {
  momoAccountNumber: '+2290197000001',
  bankName: 'Ecobank Bénin',
  bankAccountNumber: 'BJ0061010100',
};

describe('payout account of a grower: set at registration, changed only by request', () => {
  it('given an edit that sends the account back unchanged or not at all, then no change is asked', () => {
    expect(asksPayoutChange(current, {})).toBe(false);
    expect(
      asksPayoutChange(current, {
        momoInfo: { momoNumber: '+2290197000001' },
        accountInfo: { providerName: 'Ecobank Bénin', accountNumber: 'BJ0061010100' },
      }),
    ).toBe(false);
  });

  it('given another momo number, bank or account, then a change is asked', () => {
    expect(asksPayoutChange(current, { momoInfo: { momoNumber: '+2290166000001' } })).toBe(true);
    expect(asksPayoutChange(current, { accountInfo: { providerName: 'Orabank Bénin' } })).toBe(
      true,
    );
    expect(asksPayoutChange(current, { accountInfo: { accountNumber: null } })).toBe(true);
  });

  it('given a number, then MOOV for 55 58 64 65 68 95 98 99, else MTN (decisions.md)', () => {
    expect(momoOperator('+2290195000000')).toBe('MOOV');
    expect(momoOperator('+2290164123456')).toBe('MOOV');
    expect(momoOperator('+2290197000001')).toBe('MTN');
    expect(momoOperator('+2290161000000')).toBe('MTN');
    expect(momoOperator(null)).toBeNull();
  });
});
