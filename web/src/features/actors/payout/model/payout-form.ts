import { z } from 'zod';
import { toE164, toLocalPhone } from '../../../../shared/format/phone.js';
import { msg, phoneText } from '../../../../shared/validation/rules.js';
import type { PayoutAccount } from './types.js';

/** The banks offered (spec §3: two banks), as the API accepts them. */
export const PAYOUT_BANKS = ['Ecobank Bénin', 'Orabank Bénin'] as const;

export const payoutMsg = {
  bankBoth: 'payout:request.bankBoth',
  identical: 'payout:request.identical',
} as const;

/**
 * 'Demander un changement': the complete new account — mobile money (8 or 10 digits), and a
 * bank with its account number, or neither. It must differ from the current account.
 */
export const payoutRequestSchema = (current: PayoutAccount) =>
  z
    .object({
      momoAccountNumber: phoneText(),
      bankName: z.string().nullable(),
      bankAccountNumber: z
        .string()
        .trim()
        .max(40, msg.invalid)
        .regex(/^[A-Za-z0-9 -]*$/, msg.invalid),
      comment: z.string().trim().max(500, msg.invalid),
    })
    .superRefine((values, ctx) => {
      const hasBank = !!values.bankName;
      const hasAccount = values.bankAccountNumber.trim() !== '';
      if (hasBank !== hasAccount) {
        ctx.addIssue({
          code: 'custom',
          message: payoutMsg.bankBoth,
          path: [hasBank ? 'bankAccountNumber' : 'bankName'],
        });
        return;
      }
      const next = toAccount(values);
      if (
        next.momoAccountNumber === current.momoAccountNumber &&
        next.bankName === current.bankName &&
        next.bankAccountNumber === current.bankAccountNumber
      ) {
        ctx.addIssue({ code: 'custom', message: payoutMsg.identical, path: ['momoAccountNumber'] });
      }
    });

export type PayoutRequestValues = z.infer<ReturnType<typeof payoutRequestSchema>>;

/** The form's values as the API's account (E.164 number, nulls for an absent bank). */
export function toAccount(values: PayoutRequestValues): PayoutAccount {
  const account = values.bankAccountNumber.trim();
  return {
    momoAccountNumber: toE164(values.momoAccountNumber.trim()),
    bankName: values.bankName || null,
    bankAccountNumber: account === '' ? null : account,
  };
}

/** The form prefilled with the current account (numbers in their local 10-digit form). */
export function defaultsOf(current: PayoutAccount): PayoutRequestValues {
  return {
    momoAccountNumber: toLocalPhone(current.momoAccountNumber),
    bankName: current.bankName,
    bankAccountNumber: current.bankAccountNumber ?? '',
    comment: '',
  };
}

export const rejectSchema = z.object({
  reason: z.string().trim().min(1, msg.required).max(500, msg.invalid),
});
export type RejectValues = z.infer<typeof rejectSchema>;
