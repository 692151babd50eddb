import dayjs from 'dayjs';
import { z } from 'zod';
import { msg } from '../../../../shared/validation/rules.js';
import { decimalForInput } from '../../../../shared/format/number.js';

/**
 * The delivery contract form (§5 "Delivery contract form": grower required, quantity in
 * tonnes required and numeric, amount in F CFA required, delivery date required; pineapple
 * type select) and the weighed-delivery form. Messages are i18n keys: the spec's
 * 'Ce champ est obligatoire' / 'Entré non valide', and the contracts namespace's own.
 */
export const contractMsg = {
  decimals: 'contracts:validation.decimals',
  pastDate: 'contracts:validation.pastDate',
  futureDate: 'contracts:validation.futureDate',
} as const;

const ISO_DATE = 'YYYY-MM-DD';

/** Today in the browser's zone, as the API's dates (YYYY-MM-DD). */
export const today = (now: Date = new Date()) => dayjs(now).format(ISO_DATE);

/** §9: the default delivery date is today plus 5 months (the day clamped to the month's end). */
export const defaultDeliveryDate = (now: Date = new Date()) =>
  dayjs(now).add(5, 'month').format(ISO_DATE);

/** Tonnes as typed: digits with an optional single dot (a comma is read as one), not zero. */
export const TONNES = /^\d+(\.\d+)?$/;
export const normalizeTonnes = (text: string) => text.trim().replace(',', '.');

/** A quantity in tonnes: required, decimal, above zero, at most 3 decimals (whole kg). */
export const tonnesText = () =>
  z
    .string()
    .transform(normalizeTonnes)
    .pipe(
      z
        .string()
        .min(1, msg.required)
        .regex(TONNES, msg.invalid)
        .refine((v) => Number(v) > 0, msg.invalid)
        .refine((v) => (v.split('.')[1] ?? '').length <= 3, contractMsg.decimals),
    );

const isoDate = () =>
  z
    .string({ message: msg.required })
    .min(1, msg.required)
    .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && dayjs(v).format(ISO_DATE) === v, msg.invalid);

export function contractFormSchema(now: Date = new Date()) {
  const first = today(now);
  return z.object({
    growerId: z.string().min(1, msg.required),
    /** Filters the plots; picking a plot sets it (the API takes the plot's type). */
    productType: z.string(),
    productId: z.string().min(1, msg.required),
    quantity: tonnesText(),
    amount: z
      .number({ message: msg.required })
      .nullable()
      .refine((v) => v !== null, msg.required)
      .refine((v) => v === null || (Number.isSafeInteger(v) && v > 0), msg.invalid),
    deliveryDate: isoDate().refine((v) => v >= first, contractMsg.pastDate),
  });
}
export type ContractFormInput = z.input<ReturnType<typeof contractFormSchema>>;
export type ContractFormValues = z.output<ReturnType<typeof contractFormSchema>>;

export const emptyContractForm = (now: Date = new Date()): ContractFormInput => ({
  growerId: '',
  productType: '',
  productId: '',
  quantity: '',
  amount: null,
  deliveryDate: defaultDeliveryDate(now),
});

/** The weighed delivery: quantity in tonnes (≤ 3 decimals), the day, not after today. */
export function deliveryFormSchema(now: Date = new Date()) {
  const last = today(now);
  return z.object({
    quantity: tonnesText(),
    deliveredOn: isoDate().refine((v) => v <= last, contractMsg.futureDate),
  });
}
export type DeliveryFormInput = z.input<ReturnType<typeof deliveryFormSchema>>;
export type DeliveryFormValues = z.output<ReturnType<typeof deliveryFormSchema>>;

/**
 * A typed day as the date fields show it (`31/12/2026`) to 'YYYY-MM-DD', or null: the
 * picker's default parser reads `01/12/2026` as January 12th.
 */
export function parseDay(text: string): string | null {
  const match = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(text);
  if (!match) return null;
  const [, d, m, y] = match;
  const iso = `${y}-${m!.padStart(2, '0')}-${d!.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : null;
}

/** A plot's estimated production (t) as the quantity field's text: at most 3 decimals. */
export function quantityFromEstimate(estimate: number | null | undefined): string {
  if (estimate === null || estimate === undefined || !(estimate > 0)) return '';
  return decimalForInput(Math.round(estimate * 1000) / 1000);
}
