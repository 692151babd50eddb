import { z } from 'zod';
import { storableString } from '@filiere/platform';
import { PAYOUT_BANKS, phone } from '../../../identity/index.js';

/** French messages (spec §5 wording where it has one). */
export const MSG = {
  required: 'Ce champ est obligatoire',
  invalid: 'Entré non valide',
  bank: 'Choisissez une banque de la liste',
  tooLong: (max: number) => `Ce champ doit contenir au plus ${max} caractères`,
} as const;

const emptyAsNull = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? null : value;

const uuid = z.uuid(MSG.invalid);

export const idParams = z.object({ id: uuid });
export const userParams = z.object({ userId: uuid });

/** The new account, complete: mobile money (required), bank name + number (both or neither). */
export const requestBody = z.object({
  userId: uuid,
  momoAccountNumber: phone,
  bankName: z.preprocess(
    emptyAsNull,
    z.enum(PAYOUT_BANKS, { error: MSG.bank }).nullable().default(null),
  ),
  bankAccountNumber: z.preprocess(
    emptyAsNull,
    storableString()
      .trim()
      .max(40, MSG.tooLong(40))
      .regex(/^[A-Za-z0-9 -]+$/, MSG.invalid)
      .nullable()
      .default(null),
  ),
  comment: z.preprocess(
    emptyAsNull,
    storableString().trim().max(500, MSG.tooLong(500)).nullable().default(null),
  ),
});

export const rejectBody = z.object({
  reason: storableString({ error: MSG.required })
    .trim()
    .min(1, MSG.required)
    .max(500, MSG.tooLong(500)),
});

export const STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;

export const listQuery = z.object({
  page: z.coerce.number({ error: MSG.invalid }).int(MSG.invalid).min(1, MSG.invalid).default(1),
  limit: z.coerce
    .number({ error: MSG.invalid })
    .int(MSG.invalid)
    .min(1, MSG.invalid)
    .max(100, MSG.invalid)
    .default(10),
  q: z
    .preprocess(
      emptyAsNull,
      storableString().trim().max(100, MSG.tooLong(100)).optional().nullable(),
    )
    .transform((v) => v ?? undefined),
  status: z.enum(STATUSES, { error: MSG.invalid }).optional(),
});

export const historyQuery = listQuery.omit({ status: true, q: true });

const account = z.object({
  momoAccountNumber: z.string().nullable(),
  bankName: z.string().nullable(),
  bankAccountNumber: z.string().nullable(),
});
const person = z.object({ id: z.string(), firstname: z.string(), lastname: z.string() });

export const requestSchema = z.object({
  id: z.string(),
  status: z.enum(STATUSES),
  member: person.extend({ phone: z.string().nullable(), role: z.string() }),
  current: account,
  proposed: account,
  comment: z.string().nullable(),
  requestedBy: person,
  requestedAt: z.string(),
  decidedBy: person.nullable(),
  decidedAt: z.string().nullable(),
  rejectionReason: z.string().nullable(),
});

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), count: z.number() });
