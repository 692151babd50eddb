import { z } from 'zod';
import { DEFAULT_MAX_COMMAND_AMOUNT, storableString } from '@filiere/platform';
import { formatFcfa } from '../../domain/index.js';

const INVALID = 'Entré non valide';

/**
 * A money amount: integer F CFA above zero, at most `max` (MAX_COMMAND_AMOUNT; the routes
 * extend the bodies below with the configured one).
 */
export const amountUpTo = (max: number) =>
  z
    .number({ message: INVALID })
    .int({ message: INVALID })
    .positive({ message: INVALID })
    .max(max, { message: `Le montant ne peut pas dépasser ${formatFcfa(max)}` });

export const amountSchema = amountUpTo(DEFAULT_MAX_COMMAND_AMOUNT);

/** An id (user or wallet): a UUID. */
export const idSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
    message: 'Identifiant invalide',
  });

export const IDEMPOTENCY_KEY_MISSING =
  'L’en-tête Idempotency-Key est obligatoire pour une opération sur le portefeuille';

/**
 * Every money command requires `Idempotency-Key` (400 without): a repeat of the same request
 * with the same key has one effect and answers the first result; the key reused for another
 * request is refused (422, see handleCommand in @filiere/event-store).
 */
export const idempotencyHeaders = z.looseObject({
  'idempotency-key': storableString({
    error: (issue) =>
      issue.input === undefined ? IDEMPOTENCY_KEY_MISSING : 'Idempotency-Key invalide',
  })
    .min(1, { message: IDEMPOTENCY_KEY_MISSING })
    .max(200, { message: 'Idempotency-Key : au plus 200 caractères' })
    .describe(
      'Required. A repeat of the same request with the same key (per user) returns the first answer and does nothing; the key reused for another request is a 422',
    ),
});

export const transferBody = z.object({
  source: idSchema.describe('The caller’s wallet id (or user id)'),
  destination: idSchema.describe('The recipient’s wallet id or user id'),
  amount: amountSchema,
  reason: storableString().trim().min(1, { message: 'Ce champ est obligatoire' }).max(500),
});

export const debitBody = z.object({
  paiementMethod: z.enum(['MOBILE_MONEY', 'BANK'], { message: INVALID }),
  amount: amountSchema,
});

export const supplyBody = z.object({
  amount: amountSchema,
  walletId: idSchema,
  accountType: z.enum(['MOBILE_MONEY', 'CARD', 'BANK'], { message: INVALID }),
  bank: storableString().max(200).nullish(),
});

export const validateBankSupplyBody = z.object({
  reference: storableString()
    .min(1, { message: 'Ce champ est obligatoire' })
    .max(100)
    .describe('The reference as retyped by the super admin (must match exactly)'),
  supplyReference: storableString()
    .min(1)
    .max(100)
    .optional()
    .describe('The reference displayed (when given, the retyped one must equal it)'),
});

export const financementBody = z.object({
  aggregatorId: idSchema.describe('The user id of the aggregator to fund'),
  amount: amountSchema,
});

export const referenceParam = z.object({ id: storableString().min(1).max(100) });
