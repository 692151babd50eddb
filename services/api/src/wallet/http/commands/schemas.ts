import { z } from 'zod';

const INVALID = 'Entré non valide';

/** A money amount: integer F CFA above zero. */
export const amountSchema = z
  .number({ message: INVALID })
  .int({ message: INVALID })
  .positive({ message: INVALID })
  .max(Number.MAX_SAFE_INTEGER, { message: INVALID });

/** An id (user or wallet): a UUID. */
export const idSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
    message: 'Identifiant invalide',
  });

/** Every command accepts `Idempotency-Key`: a repeat with the same key has one effect. */
export const idempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('A repeat with the same key (per user) returns the first answer and does nothing'),
});

export const transferBody = z.object({
  source: idSchema.describe('The caller’s wallet id (or user id)'),
  destination: idSchema.describe('The recipient’s wallet id or user id'),
  amount: amountSchema,
  reason: z.string().trim().min(1, { message: 'Ce champ est obligatoire' }).max(500),
});

export const debitBody = z.object({
  paiementMethod: z.enum(['MOBILE_MONEY', 'BANK'], { message: INVALID }),
  amount: amountSchema,
});

export const supplyBody = z.object({
  amount: amountSchema,
  walletId: idSchema,
  accountType: z.enum(['MOBILE_MONEY', 'CARD', 'BANK'], { message: INVALID }),
  bank: z.string().max(200).nullish(),
});

export const validateBankSupplyBody = z.object({
  reference: z
    .string()
    .min(1, { message: 'Ce champ est obligatoire' })
    .max(100)
    .describe('The reference as retyped by the super admin (must match exactly)'),
  supplyReference: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('The reference displayed (when given, the retyped one must equal it)'),
});

export const financementBody = z.object({
  aggregatorId: idSchema.describe('The user id of the aggregator to fund'),
  amount: amountSchema,
});

export const referenceParam = z.object({ id: z.string().min(1).max(100) });
