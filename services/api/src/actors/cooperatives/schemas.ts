import { z } from 'zod';
import { storableString } from '@filiere/platform';
import { email, PAYOUT_BANKS, phone, text } from '../../identity/index.js';

/** The spec's French messages (§5). */
export const MSG = {
  required: 'Ce champ est obligatoire',
  invalid: 'Entré non valide',
  nip: 'Le NIP est numérique et fait au plus 10 chiffres',
  ifu: 'L’IFU doit contenir exactement 13 chiffres',
} as const;

/** Forms send '' for an empty optional field: read it as null. */
export const emptyAsNull = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? null : value;

const requiredError = (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? MSG.required : MSG.invalid;

/** Numéro d'identification personnel: digits, at most 10, optional. */
export const nip = z.preprocess(
  emptyAsNull,
  storableString()
    .trim()
    .regex(/^[0-9]{1,10}$/, MSG.nip)
    .nullable()
    .optional(),
);

/** An optional bounded text ('' = none). */
export const optionalText = (max: number) =>
  z.preprocess(emptyAsNull, storableString().trim().max(max, MSG.invalid).nullable().optional());

export const ifu = storableString({ error: requiredError })
  .trim()
  .min(1, MSG.required)
  .regex(/^[0-9]{13}$/, MSG.ifu);

/** The two banks the forms offer (spec §3: "two banks offered"), identity's list. */
export const BANKS = PAYOUT_BANKS;

/** The payout accounts entered at registration (later changes: the payout request flow). */
export const accountInfo = z.object({
  providerName: z.enum(BANKS, { error: MSG.required }),
  accountNumber: text(40),
});
export const momoInfo = z.object({
  /** Derived from the number (MOOV/MTN); accepted and ignored. */
  providerName: z.string().max(10).optional(),
  momoNumber: phone,
});

export const listQuery = z.object({
  page: z.coerce.number(MSG.invalid).int(MSG.invalid).min(1, MSG.invalid).default(1),
  limit: z.coerce
    .number(MSG.invalid)
    .int(MSG.invalid)
    .min(-1, MSG.invalid)
    .max(1000, MSG.invalid)
    .refine((n) => n !== 0, MSG.invalid)
    .default(10),
  q: storableString().trim().max(100, MSG.invalid).optional(),
  /** `inactive`: the deactivated rows (their reactivation screen). */
  status: z.enum(['active', 'inactive'], { error: MSG.invalid }).default('active'),
});
export type ListQuery = z.infer<typeof listQuery>;

export const idParams = z.object({ id: z.uuid(MSG.invalid) });

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), count: z.number() });

// Cooperatives

export const cooperativeUserInput = z.object({
  lastname: text(),
  firstname: text(),
  nip,
  phone,
  email,
  rccm: optionalText(40),
  ifu,
});

export const createCooperativeBody = z.object({
  /** The denomination (dénomination). */
  label: text(150),
  user: cooperativeUserInput,
  accountInfo,
  momoInfo,
});
export type CreateCooperativeBody = z.infer<typeof createCooperativeBody>;

/** Staff edit: denomination and the representative's fields; never the payout accounts. */
export const updateCooperativeBody = z.object({
  label: text(150).optional(),
  user: cooperativeUserInput.partial().optional(),
});
export type UpdateCooperativeBody = z.infer<typeof updateCooperativeBody>;

export const cooperativeSchema = z.object({
  id: z.string(),
  reference: z.string(),
  label: z.string(),
  userId: z.string(),
  clusterId: z.string(),
  isActive: z.boolean(),
  createdAt: z.string(),
  user: z.object({
    id: z.string(),
    lastname: z.string(),
    firstname: z.string(),
    nip: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    rccm: z.string().nullable(),
    ifu: z.string(),
  }),
  accountInfo: z.object({
    providerName: z.string().nullable(),
    accountNumber: z.string().nullable(),
  }),
  momoInfo: z.object({ providerName: z.string().nullable(), momoNumber: z.string().nullable() }),
});
export type CooperativeDto = z.infer<typeof cooperativeSchema>;
