import { describe, expect, it } from 'vitest';
import {
  contractFormSchema,
  defaultDeliveryDate,
  deliveryFormSchema,
  emptyContractForm,
  parseDay,
  quantityFromEstimate,
} from './contract-form.js';
import { contractActions, deliveryContractsSearch } from './statuses.js';
import { deliveryWorth } from '../components/RecordDeliveryModal.js';
import type { DeliveryContract } from '../api/delivery-contracts.js';

const NOW = new Date(2026, 8, 30, 10); // 30 Sept 2026, local time

/** The first message of each field, as the form shows it (zodResolver keeps the first). */
const issues = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => {
  const first: Record<string, string> = {};
  for (const i of result.error?.issues ?? []) first[i.path.join('.')] ??= i.message;
  return first;
};

describe('the delivery contract form', () => {
  it('defaults the delivery date to today + 5 months, the day clamped to the month end', () => {
    expect(defaultDeliveryDate(NOW)).toBe('2027-02-28');
    expect(defaultDeliveryDate(new Date(2026, 0, 15))).toBe('2026-06-15');
    expect(emptyContractForm(NOW).deliveryDate).toBe('2027-02-28');
  });

  it('asks for the grower, the plot, the quantity and the amount with the spec’s messages', () => {
    const result = contractFormSchema(NOW).safeParse(emptyContractForm(NOW));
    expect(issues(result)).toEqual({
      growerId: 'validation:required',
      productId: 'validation:required',
      quantity: 'validation:required',
      amount: 'validation:required',
    });
  });

  it('reads tonnes with a dot or a comma, at most 3 decimals, above zero; amounts above zero', () => {
    const base = { ...emptyContractForm(NOW), growerId: 'g', productId: 'p', amount: 1_500_000 };
    const parse = (quantity: string, amount = 1_500_000) =>
      contractFormSchema(NOW).safeParse({ ...base, quantity, amount });
    expect(parse('2,5')).toMatchObject({ success: true, data: { quantity: '2.5' } });
    expect(parse('12.125').success).toBe(true);
    expect(issues(parse('1.2345'))).toEqual({ quantity: 'contracts:validation.decimals' });
    expect(issues(parse('abc'))).toEqual({ quantity: 'validation:invalid' });
    expect(issues(parse('0'))).toEqual({ quantity: 'validation:invalid' });
    expect(issues(parse('3', 0))).toEqual({ amount: 'validation:invalid' });
  });

  it('refuses a delivery date in the past', () => {
    const result = contractFormSchema(NOW).safeParse({
      ...emptyContractForm(NOW),
      growerId: 'g',
      productId: 'p',
      quantity: '1',
      amount: 10,
      deliveryDate: '2026-09-29',
    });
    expect(issues(result)).toEqual({ deliveryDate: 'contracts:validation.pastDate' });
  });

  it('reads a typed day first (31/12/2026), not month first', () => {
    expect(parseDay('01/12/2026')).toBe('2026-12-01');
    expect(parseDay(' 5/3/2027 ')).toBe('2027-03-05');
    expect(parseDay('31/02/2027')).toBeNull();
    expect(parseDay('2026-12-01')).toBeNull();
  });

  it('pre-fills the quantity from a plot’s estimated production', () => {
    // In the interface's language: a decimal comma in French.
    expect(quantityFromEstimate(42.5)).toBe('42,5');
    expect(quantityFromEstimate(1.23456)).toBe('1,235');
    expect(quantityFromEstimate(null)).toBe('');
  });
});

describe('the weighed delivery', () => {
  it('takes a date up to today, not after', () => {
    expect(
      deliveryFormSchema(NOW).safeParse({ quantity: '2', deliveredOn: '2026-09-30' }).success,
    ).toBe(true);
    expect(
      issues(deliveryFormSchema(NOW).safeParse({ quantity: '2', deliveredOn: '2026-10-01' })),
    ).toEqual({
      deliveredOn: 'contracts:validation.futureDate',
    });
  });

  it('shows the worth of the delivered quantity floored as the run computes it', () => {
    const contract = { quantity: '3', amount: 1_000_000 } as DeliveryContract;
    expect(deliveryWorth('3', contract)).toBe(1_000_000);
    expect(deliveryWorth('1', contract)).toBe(333_333);
    expect(deliveryWorth('1,5', contract)).toBe(500_000);
    expect(deliveryWorth('1.2345', contract)).toBeNull();
  });
});

describe('the list’s URL and the actions', () => {
  it('keeps the filter and the run, drops a bad filter', () => {
    expect(deliveryContractsSearch.parse({ status: 'ready', run: 'r1', page: '2' })).toEqual({
      status: 'ready',
      run: 'r1',
      page: 2,
    });
    expect(deliveryContractsSearch.parse({ status: 'nope' })).toEqual({});
  });

  it('offers confirm to the grower and its cooperative, deliver and cancel to the aggregator', () => {
    expect(contractActions('ROLE_GROWER', 'PENDING').confirm).toBe(true);
    expect(contractActions('ROLE_FARMER_ORGANIZATION', 'PENDING').confirm).toBe(true);
    expect(contractActions('ROLE_INDUSTRIAL', 'PENDING')).toMatchObject({
      confirm: false,
      cancel: true,
      deliver: false,
    });
    expect(contractActions('ROLE_INDUSTRIAL', 'CONFIRMED')).toMatchObject({
      deliver: true,
      cancel: true,
    });
    expect(contractActions('ROLE_INDUSTRIAL', 'DELIVERED')).toMatchObject({
      cancel: false,
      run: true,
    });
    expect(contractActions('ROLE_ADMIN', 'CONFIRMED')).toMatchObject({
      deliver: false,
      cancel: false,
    });
  });
});
