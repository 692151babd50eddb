import { z } from 'zod';
import { msg } from '../../../shared/validation/rules.js';
import { amountError, referenceMatches, requiredError, type AmountLimits } from './amount.js';
import type { Recipient } from './types.js';

/**
 * The zod schemas of the wallet's money forms (react-hook-form + `zodResolver`, as the identity
 * forms). Messages are i18n keys ('validation:required' → 'Ce champ est obligatoire',
 * 'validation:invalid' → 'Entré non valide'); `useFieldError` translates them.
 */
const check =
  <T>(rule: (value: T) => string | null) =>
  (value: T, ctx: z.RefinementCtx) => {
    const message = rule(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  };

/** The limits an amount is checked against, read when the form validates (they load later). */
export type LimitsOf = () => AmountLimits;
const NO_LIMITS: LimitsOf = () => ({});

/** A MoneyInput's integer F CFA: required, a whole number above zero, within `limits`. */
export const amountField = (limits: LimitsOf = NO_LIMITS) =>
  z
    .number()
    .nullable()
    .superRefine(check((value) => amountError(value, limits())));

export const PAYMENT_MEANS = ['MOBILE_MONEY', 'BANK'] as const;
export type PaymentMeans = (typeof PAYMENT_MEANS)[number];

/** The step shared by 'Retirer' and 'Nouvel approvisionnement': a means and an amount. */
export interface AmountValues {
  means: PaymentMeans;
  amount: number | null;
}

/** 'Retirer': the means of the payout and the amount (at most the ceiling and the balance). */
export const withdrawSchemaWithin = (limits: LimitsOf) =>
  z.object({ means: z.enum(PAYMENT_MEANS), amount: amountField(limits) });
export const withdrawSchema = withdrawSchemaWithin(NO_LIMITS);
export type WithdrawValues = z.infer<typeof withdrawSchema>;

/**
 * 'Nouvel approvisionnement': a bank transfer names the bank (the accepted one, preselected);
 * mobile money names the payer's number (prefilled from the profile), 8 or 10 digits.
 */
export const supplySchemaWithin = (limits: LimitsOf) =>
  z
    .object({
      means: z.enum(PAYMENT_MEANS),
      amount: amountField(limits),
      bank: z.string(),
      phone: z.string(),
    })
    .refine((v) => v.means !== 'BANK' || v.bank.trim() !== '', {
      path: ['bank'],
      message: msg.required,
    })
    .superRefine((v, ctx) => {
      if (v.means !== 'MOBILE_MONEY') return;
      const phone = v.phone.trim();
      if (!phone) ctx.addIssue({ code: 'custom', path: ['phone'], message: msg.required });
      else if (!/^(\d{8}|01\d{8})$/.test(phone)) {
        ctx.addIssue({ code: 'custom', path: ['phone'], message: msg.phone });
      }
    });
export const supplySchema = supplySchemaWithin(NO_LIMITS);
export type SupplyValues = z.infer<typeof supplySchema>;

/** 'Transférer': the recipient picked in the search step, then the amount and the reason. */
export const transferSchemaWithin = (limits: LimitsOf) =>
  z.object({
    recipient: z
      .custom<Recipient>()
      .nullable()
      .refine((r) => Boolean(r), 'wallet:transferFlow.noRecipient'),
    amount: amountField(limits),
    reason: z.string().superRefine(check(requiredError)),
  });
export const transferSchema = transferSchemaWithin(NO_LIMITS);
export type TransferValues = z.infer<typeof transferSchema>;

/** 'Financer un agrégateur': the aggregator and the amount. */
export const financingSchemaWithin = (limits: LimitsOf) =>
  z.object({ aggregatorId: z.string().min(1, msg.required), amount: amountField(limits) });
export const financingSchema = financingSchemaWithin(NO_LIMITS);
export type FinancingValues = z.infer<typeof financingSchema>;

/** 'Valider l'approvisionnement': the reference retyped must equal the displayed one exactly. */
export const validateSupplySchema = z
  .object({ reference: z.string(), typed: z.string() })
  .refine((v) => referenceMatches(v.typed, v.reference), { path: ['typed'], message: msg.invalid });
export type ValidateSupplyValues = z.infer<typeof validateSupplySchema>;

/** 'Rejeter l'approvisionnement': the reason the requester will read (required, ≤ 500). */
export const rejectSupplySchema = z.object({
  reason: z.string().trim().min(1, msg.required).max(500, msg.invalid),
});
export type RejectSupplyValues = z.infer<typeof rejectSupplySchema>;
