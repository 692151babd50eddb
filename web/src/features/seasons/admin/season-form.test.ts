import { describe, expect, it } from 'vitest';
import {
  fertilizerLineSchema,
  parseDay,
  quantitySchema,
  seasonFormSchema,
  toSeasonInput,
  type FertilizerLine,
  type SeasonFormValues,
} from './season-form.js';

const now = new Date('2026-11-22T10:00:00');
const good: SeasonFormValues = {
  label: 'Saison 2027',
  from: '2026-12-01',
  to: '2027-11-30',
  unitProductAmount: 120,
  productionIndex: '50',
  quotity: '10',
};

/** The message keys of a parse, by field path. */
const messages = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('the season form (spec §5)', () => {
  const schema = seasonFormSchema({ now });

  it('takes a good season', () => {
    expect(schema.safeParse(good).success).toBe(true);
  });

  it('requires every field, with the spec’s required message', () => {
    const result = schema.safeParse({
      label: ' ',
      from: null,
      to: null,
      unitProductAmount: null,
      productionIndex: '',
      quotity: '',
    });
    expect(messages(result)).toEqual({
      label: 'validation:required',
      from: 'validation:required',
      to: 'validation:required',
      unitProductAmount: 'validation:required',
      productionIndex: 'validation:required',
      quotity: 'validation:required',
    });
  });

  it('starts today at the earliest, ends after the start, and checks the numbers', () => {
    const result = schema.safeParse({
      ...good,
      from: '2026-11-21',
      to: '2026-11-20',
      unitProductAmount: 0,
      productionIndex: '0.5',
      quotity: '100.5',
    });
    expect(messages(result)).toEqual({
      from: 'seasons:rules.fromMin',
      to: 'seasons:rules.toMin',
      unitProductAmount: 'seasons:rules.unitProductAmountMin',
      productionIndex: 'seasons:rules.productionIndexMin',
      quotity: 'seasons:rules.quotityMax',
    });
    expect(schema.safeParse({ ...good, from: '2026-11-22' }).success).toBe(true);
  });

  it('takes two decimals at most, a comma as well as a dot, and no text', () => {
    expect(messages(schema.safeParse({ ...good, productionIndex: '50.125' }))).toEqual({
      productionIndex: 'seasons:rules.twoDecimals',
    });
    expect(messages(schema.safeParse({ ...good, quotity: 'dix' }))).toEqual({
      quotity: 'validation:invalid',
    });
    expect(schema.safeParse({ ...good, productionIndex: '47,5', quotity: '0' }).success).toBe(true);
  });

  it('lets an edited season keep a start date now past', () => {
    const edit = seasonFormSchema({ now, keptFrom: '2026-01-01' });
    expect(edit.safeParse({ ...good, from: '2026-01-01' }).success).toBe(true);
    expect(messages(edit.safeParse({ ...good, from: '2026-02-01' }))).toEqual({
      from: 'seasons:rules.fromMin',
    });
  });

  it('sends decimals as numbers and the lines without their names', () => {
    const line: FertilizerLine = {
      fertilizerId: 1,
      typeId: 1,
      amount: 350,
      index: 400.5,
      label: 'NPK 15-15-15',
      typeLabel: 'Engrais',
    };
    expect(
      toSeasonInput({ ...good, label: ' Saison 2027 ', productionIndex: '47,5' }, [line]),
    ).toEqual({
      label: 'Saison 2027',
      from: '2026-12-01',
      to: '2027-11-30',
      unitProductAmount: 120,
      productionIndex: 47.5,
      quotity: 10,
      fertilizers: [{ fertilizerId: 1, typeId: 1, amount: 350, index: 400.5 }],
    });
  });
});

describe('a fertilizer line (spec §5)', () => {
  it('requires type, fertilizer, amount ≥ 1 and dose ≥ 1, and a fertilizer once', () => {
    const schema = fertilizerLineSchema([2]);
    expect(
      messages(schema.safeParse({ typeId: '', fertilizerId: '', amount: null, index: '' })),
    ).toEqual({
      typeId: 'validation:required',
      fertilizerId: 'validation:required',
      amount: 'validation:required',
      index: 'validation:required',
    });
    expect(
      messages(schema.safeParse({ typeId: '1', fertilizerId: '2', amount: 0, index: '0.5' })),
    ).toEqual({
      fertilizerId: 'seasons:rules.duplicate',
      amount: 'seasons:rules.amountMin',
      index: 'seasons:rules.indexMin',
    });
    expect(
      schema.safeParse({ typeId: '1', fertilizerId: '1', amount: 350, index: '400' }).success,
    ).toBe(true);
  });
});

describe('the attach quantity and the typed dates', () => {
  it('wants a whole quantity of at least 1 kg', () => {
    expect(messages(quantitySchema.safeParse({ quantity: null }))).toEqual({
      quantity: 'validation:required',
    });
    expect(messages(quantitySchema.safeParse({ quantity: 0 }))).toEqual({
      quantity: 'seasons:rules.quantityMin',
    });
    expect(quantitySchema.safeParse({ quantity: 20_000 }).success).toBe(true);
  });

  it('reads a day as the field shows it (day first), and refuses an impossible one', () => {
    expect(parseDay('01/12/2026')).toBe('2026-12-01');
    expect(parseDay('1/2/2027')).toBe('2027-02-01');
    expect(parseDay('31/02/2027')).toBeNull();
    expect(parseDay('2027-02-01')).toBeNull();
  });
});
