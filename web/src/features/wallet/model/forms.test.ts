import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  financingSchema,
  financingSchemaWithin,
  supplySchema,
  supplySchemaWithin,
  transferSchema,
  transferSchemaWithin,
  validateSupplySchema,
  withdrawSchema,
  withdrawSchemaWithin,
} from './forms.js';

/** The i18n message keys a form shows, by field. */
function messages(schema: z.ZodType, values: unknown): Record<string, string> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('wallet money forms', () => {
  it('checks the ceiling and the available balance in the form, before any confirmation', () => {
    const limits = () => ({ max: 100_000_000, available: 50_000 });
    const transfer = transferSchemaWithin(limits);
    const recipient = { id: 'u2' };
    expect(messages(transfer, { recipient, amount: 50_001, reason: 'Avance' })).toEqual({
      amount: 'wallet:amountLimits.aboveAvailable',
    });
    expect(messages(transfer, { recipient, amount: 100_000_001, reason: 'Avance' })).toEqual({
      amount: 'wallet:amountLimits.aboveMax',
    });
    expect(messages(transfer, { recipient, amount: 50_000, reason: 'Avance' })).toEqual({});
    expect(messages(withdrawSchemaWithin(limits), { means: 'BANK', amount: 60_000 })).toEqual({
      amount: 'wallet:amountLimits.aboveAvailable',
    });
    expect(messages(financingSchemaWithin(limits), { aggregatorId: 'a', amount: 50_001 })).toEqual({
      amount: 'wallet:amountLimits.aboveAvailable',
    });
    // A supply brings money in: only the ceiling applies.
    const supply = supplySchemaWithin(() => ({ max: 600_000 }));
    const bank = { means: 'BANK', bank: 'BOA', phone: '' };
    expect(messages(supply, { ...bank, amount: 600_001 })).toEqual({
      amount: 'wallet:amountLimits.aboveMax',
    });
    expect(messages(supply, { ...bank, amount: 600_000 })).toEqual({});
  });

  it('asks for an amount, then refuses zero ("Entré non valide")', () => {
    expect(messages(withdrawSchema, { means: 'MOBILE_MONEY', amount: null })).toEqual({
      amount: 'validation:required',
    });
    expect(messages(withdrawSchema, { means: 'BANK', amount: 0 })).toEqual({
      amount: 'validation:invalid',
    });
    expect(messages(withdrawSchema, { means: 'BANK', amount: 30_000 })).toEqual({});
  });

  it('names the bank of a supply by transfer, not of a mobile-money one', () => {
    expect(messages(supplySchema, { means: 'BANK', amount: null, bank: '', phone: '' })).toEqual({
      amount: 'validation:required',
      bank: 'validation:required',
    });
    expect(
      messages(supplySchema, {
        means: 'MOBILE_MONEY',
        amount: 500_000,
        bank: '',
        phone: '0196000001',
      }),
    ).toEqual({});
    expect(
      messages(supplySchema, { means: 'BANK', amount: 500_000, bank: 'BOA', phone: '' }),
    ).toEqual({});
  });

  it('wants the payer’s mobile money number (8 or 10 digits) for a mobile-money supply', () => {
    const momo = (phone: string) =>
      messages(supplySchema, { means: 'MOBILE_MONEY', amount: 1_000, bank: '', phone });
    expect(momo('')).toEqual({ phone: 'validation:required' });
    expect(momo('12345')).toEqual({ phone: 'validation:phone' });
    expect(momo('0296000001')).toEqual({ phone: 'validation:phone' });
    expect(momo('96000001')).toEqual({});
    expect(momo('0196000001')).toEqual({});
  });

  it('wants a recipient, an amount and a reason to transfer', () => {
    expect(messages(transferSchema, { recipient: null, amount: null, reason: ' ' })).toEqual({
      recipient: 'wallet:transferFlow.noRecipient',
      amount: 'validation:required',
      reason: 'validation:required',
    });
    expect(
      messages(transferSchema, { recipient: { id: 'u2' }, amount: 25_000, reason: 'Avance' }),
    ).toEqual({});
  });

  it('wants an aggregator and an amount to finance', () => {
    expect(messages(financingSchema, { aggregatorId: '', amount: 1.5 })).toEqual({
      aggregatorId: 'validation:required',
      amount: 'validation:invalid',
    });
  });

  it('validates a bank supply only for the exact reference retyped', () => {
    expect(messages(validateSupplySchema, { reference: 'SUP-1', typed: 'sup-1' })).toEqual({
      typed: 'validation:invalid',
    });
    expect(messages(validateSupplySchema, { reference: 'SUP-1', typed: 'SUP-1' })).toEqual({});
  });
});
