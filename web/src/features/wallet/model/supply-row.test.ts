import { describe, expect, it } from 'vitest';
import { awaitsPayment, operatorOf } from './supply-row.js';

describe('the payer’s number and the supply rows', () => {
  it('names the operator from the former 8 digits (decisions.md): MOOV for 55 58 64 65 68 95 98 99', () => {
    for (const prefix of ['55', '58', '64', '65', '68', '95', '98', '99']) {
      expect(operatorOf(`${prefix}000001`), prefix).toBe('MOOV');
      expect(operatorOf(`01${prefix}000001`), prefix).toBe('MOOV');
    }
    for (const prefix of ['51', '52', '53', '54', '61', '62', '66', '67', '96', '97']) {
      expect(operatorOf(`01${prefix}000001`), prefix).toBe('MTN');
    }
    expect(operatorOf('01 97 00 00 03')).toBe('MTN');
  });

  it('names no operator before the number is complete or for another plan', () => {
    for (const partial of ['', '0197', '9700000', '0297000003', '019700000301']) {
      expect(operatorOf(partial), partial).toBeNull();
    }
  });

  it('offers Réessayer/Annuler only on a mobile-money or card supply still INIT', () => {
    expect(awaitsPayment({ status: 'INIT', paymentMethod: 'MOBILE_MONEY' })).toBe(true);
    expect(awaitsPayment({ status: 'INIT', paymentMethod: 'CARD' })).toBe(true);
    expect(awaitsPayment({ status: 'INIT', paymentMethod: 'BANK' })).toBe(false);
    for (const status of ['PENDING', 'SUCCESS', 'FAILED']) {
      expect(awaitsPayment({ status, paymentMethod: 'MOBILE_MONEY' })).toBe(false);
    }
  });
});
