import dayjs from 'dayjs';
import { z } from 'zod';
import { msg } from '../../../shared/validation/rules.js';
import type { SeasonDetail, SeasonFertilizerLine, SeasonInput } from '../model/index.js';

/**
 * The season's forms (spec §2.8 step 1, §2.9, §5): what they hold, the rules with the spec's
 * French messages (i18n keys, `seasons:rules.*` and `validation:*`), and the payload they
 * send. Numbers are typed as text and checked here: a price is whole F CFA, a yield, dose or
 * quotity carries at most two decimals (the server's rule: 'Deux décimales au plus').
 */

const R = (key: string) => `seasons:rules.${key}`;

/** A decimal typed with a dot or a comma: `12`, `12.5`, `12,25`. */
const DECIMAL = /^\d+([.,]\d+)?$/;
const TWO_DECIMALS = /^\d+([.,]\d{1,2})?$/;
export const parseDecimal = (text: string): number => Number(text.trim().replace(',', '.'));

/** A required decimal text between `min` and `max`, two decimals at most. */
const decimalText = (min: number, max: number, minKey: string, maxKey: string) =>
  z
    .string()
    .trim()
    .min(1, msg.required)
    .superRefine((value, ctx) => {
      if (value === '') return; // 'Ce champ est obligatoire' already
      if (!DECIMAL.test(value)) return void ctx.addIssue({ code: 'custom', message: msg.invalid });
      if (!TWO_DECIMALS.test(value)) {
        return void ctx.addIssue({ code: 'custom', message: R('twoDecimals') });
      }
      const n = parseDecimal(value);
      if (n < min) ctx.addIssue({ code: 'custom', message: minKey });
      else if (n > max) ctx.addIssue({ code: 'custom', message: maxKey });
    });

/** A required whole number (money inputs give integers or null) between `min` and `max`. */
const wholeNumber = (min: number, max: number, minKey: string, maxKey: string) =>
  z
    .number(msg.required)
    .nullable()
    .superRefine((value, ctx) => {
      if (value === null) return void ctx.addIssue({ code: 'custom', message: msg.required });
      if (!Number.isSafeInteger(value)) ctx.addIssue({ code: 'custom', message: msg.invalid });
      else if (value < min) ctx.addIssue({ code: 'custom', message: minKey });
      else if (value > max) ctx.addIssue({ code: 'custom', message: maxKey });
    });

/** A fertilizer line of the wizard (spec §3 "Campaign fertilizer line"). */
export interface FertilizerLineValues {
  typeId: string;
  fertilizerId: string;
  /** aᵢ: F CFA per kg. */
  amount: number | null;
  /** dᵢ: kg per hectare. */
  index: string;
}

/** A line as the wizard's table keeps it: the values and the names shown. */
export interface FertilizerLine extends SeasonFertilizerLine {
  label: string;
  typeLabel: string;
}

export const emptyFertilizerLine: FertilizerLineValues = {
  typeId: '',
  fertilizerId: '',
  amount: null,
  index: '',
};

/**
 * Spec §5: type required, fertilizer required, unit amount required min 1, dose per hectare
 * required min 1; a fertilizer once per season (`taken`: the ids of the other lines).
 */
export const fertilizerLineSchema = (taken: readonly number[] = []) =>
  z.object({
    typeId: z.string().min(1, msg.required),
    fertilizerId: z
      .string()
      .min(1, msg.required)
      .refine((v) => !taken.includes(Number(v)), R('duplicate')),
    amount: wholeNumber(1, 100_000_000, R('amountMin'), R('amountMax')),
    index: decimalText(1, 1_000_000, R('indexMin'), R('indexMax')),
  });

export const toFertilizerLine = (
  values: FertilizerLineValues,
  names: { label: string; typeLabel: string },
): FertilizerLine => ({
  fertilizerId: Number(values.fertilizerId),
  typeId: Number(values.typeId),
  amount: values.amount ?? 0,
  index: parseDecimal(values.index),
  ...names,
});

export const toFertilizerLineValues = (line: SeasonFertilizerLine): FertilizerLineValues => ({
  typeId: String(line.typeId),
  fertilizerId: String(line.fertilizerId),
  amount: line.amount,
  index: String(line.index),
});

/**
 * A typed day as the field shows it (`31/12/2026`) to 'YYYY-MM-DD', or null: the picker's
 * default parser reads `01/12/2026` as January 12th.
 */
export function parseDay(text: string): string | null {
  const match = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(text);
  if (!match) return null;
  const [, d, m, y] = match;
  const iso = `${y}-${m!.padStart(2, '0')}-${d!.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : null;
}

/** Step 1 / the small form: the season's general information. */
export interface SeasonFormValues {
  label: string;
  /** 'YYYY-MM-DD' or null. */
  from: string | null;
  to: string | null;
  unitProductAmount: number | null;
  productionIndex: string;
  quotity: string;
}

export const emptySeasonForm: SeasonFormValues = {
  label: '',
  from: null,
  to: null,
  unitProductAmount: null,
  productionIndex: '',
  quotity: '',
};

/** Today in the browser's zone (Benin's for its users), as 'YYYY-MM-DD'. */
export const today = (now = new Date()) => dayjs(now).format('YYYY-MM-DD');

/**
 * Spec §5: name required; start date required, minimum today; end date required, minimum
 * the start date; price required, numeric, min 1; yield required, min 1; quotity required,
 * 0 to 100. On edit, a start date left as it was may lie in the past (`keptFrom`), as the
 * server checks the start only when it changes.
 */
export const seasonFormSchema = ({
  now = new Date(),
  keptFrom = null,
}: { now?: Date; keptFrom?: string | null } = {}) =>
  z
    .object({
      label: z.string().trim().min(1, msg.required).max(200, R('labelMax')),
      from: z
        .string(msg.required)
        .nullable()
        .refine((v) => v !== null && v !== '', msg.required)
        .refine((v) => !v || v === keptFrom || v >= today(now), R('fromMin')),
      to: z
        .string(msg.required)
        .nullable()
        .refine((v) => v !== null && v !== '', msg.required),
      unitProductAmount: wholeNumber(
        1,
        1_000_000,
        R('unitProductAmountMin'),
        R('unitProductAmountMax'),
      ),
      productionIndex: decimalText(1, 1_000, R('productionIndexMin'), R('productionIndexMax')),
      quotity: decimalText(0, 100, msg.invalid, R('quotityMax')),
    })
    .superRefine((v, ctx) => {
      if (v.from && v.to && v.to < v.from) {
        ctx.addIssue({ code: 'custom', message: R('toMin'), path: ['to'] });
      }
    });

export const toSeasonFormValues = (season: SeasonDetail): SeasonFormValues => ({
  label: season.label,
  from: season.from,
  to: season.to,
  unitProductAmount: season.unitProductAmount,
  productionIndex: String(season.productionIndex),
  quotity: String(season.quotity),
});

/** The season's fields of `POST clusters` / `PATCH clusters/{id}`. */
export function toSeasonFields(values: SeasonFormValues): Omit<SeasonInput, 'fertilizers'> {
  return {
    label: values.label.trim(),
    from: values.from ?? '',
    to: values.to ?? '',
    unitProductAmount: values.unitProductAmount ?? 0,
    productionIndex: parseDecimal(values.productionIndex),
    quotity: parseDecimal(values.quotity),
  };
}

/** The whole body of the wizard's save: fields and fertilizer lines. */
export function toSeasonInput(values: SeasonFormValues, lines: FertilizerLine[]): SeasonInput {
  return {
    ...toSeasonFields(values),
    fertilizers: lines.map(({ fertilizerId, typeId, amount, index }) => ({
      fertilizerId,
      typeId,
      amount,
      index,
    })),
  };
}

/** The attach step's quantity (kg): required, whole, 1 to 10⁹ (spec §5: required, numeric). */
export const quantitySchema = z.object({
  quantity: wholeNumber(1, 1_000_000_000, R('quantityMin'), R('quantityMax')),
});
export type QuantityValues = z.input<typeof quantitySchema>;
