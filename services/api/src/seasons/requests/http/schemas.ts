import { z } from 'zod';
import { storableString } from '@filiere/platform';
import { REQUEST_STATUSES, REQUEST_TYPES } from '../domain/index.js';

const INVALID = 'Entré non valide';
const REQUIRED = 'Ce champ est obligatoire';
const uuid = z.guid({ message: 'Identifiant invalide' });
const requestId = z.coerce
  .number({ message: 'Identifiant invalide' })
  .int({ message: 'Identifiant invalide' })
  .positive({ message: 'Identifiant invalide' })
  .max(2_147_483_647, { message: 'Identifiant invalide' });

const int = (min: number, max: number) =>
  z
    .number({ message: INVALID })
    .int({ message: INVALID })
    .min(min, { message: `Le champ doit avoir une valeur supérieure ou égale à ${min}` })
    .max(max, { message: `Le champ doit avoir une valeur inférieure ou égale à ${max}` });

/** INPUT, PINEAPLE or SOCIAL (any case). */
export const requestType = z
  .string({ message: INVALID })
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(REQUEST_TYPES, { message: 'Type de demande invalide (INPUT, PINEAPLE, SOCIAL)' }));

/** CREATED, CONFIRMED (ACCEPTED is taken for it) or REJECTED. */
const requestStatus = z
  .string({ message: INVALID })
  .transform((s) => (s.toUpperCase() === 'ACCEPTED' ? 'CONFIRMED' : s.toUpperCase()))
  .pipe(z.enum(REQUEST_STATUSES, { message: 'Statut invalide (CREATED, CONFIRMED, REJECTED)' }));

export const typeUserParams = z.object({ type: requestType, userId: uuid });

const pageFields = {
  page: z.coerce.number({ message: INVALID }).int().min(1).max(100_000).default(1),
  limit: z.coerce.number({ message: INVALID }).int().min(1).max(100).default(10),
  q: storableString().trim().max(200).optional(),
};

export const requestListQuery = z.object({
  ...pageFields,
  status: requestStatus.optional(),
  seasonId: z.coerce.number({ message: INVALID }).int().positive().max(2_147_483_647).optional(),
});

export const pendingListQuery = z.object({
  ...pageFields,
  seasonId: requestListQuery.shape.seasonId,
});

export const fileBody = z.object({
  type: requestType,
  seasonId: int(1, 2_147_483_647),
  growerId: uuid,
  fertilizerId: int(1, 2_147_483_647).optional(),
  quantity: int(1, 1_000_000_000)
    .optional()
    .describe('INPUT: kg of fertilizer; PINEAPLE: kg of pineapple to deliver'),
  amount: int(1, 1_000_000_000_000).optional().describe('PINEAPLE, SOCIAL: F CFA asked'),
  sfdUserId: uuid.optional(),
});

export const acceptManyBody = z.object({
  ids: z
    .array(requestId, { message: REQUIRED })
    .min(1, { message: 'Choisissez au moins une demande' })
    .max(100, { message: 'Au plus 100 demandes à la fois' }),
});

export const rejectManyBody = z
  .array(
    z.object({
      id: requestId,
      reason: storableString({ message: REQUIRED })
        .trim()
        .min(1, { message: 'Le motif est obligatoire' })
        .max(1000, { message: 'Le motif doit faire au plus 1000 caractères' }),
    }),
    { message: REQUIRED },
  )
  .min(1, { message: 'Choisissez au moins une demande' })
  .max(100, { message: 'Au plus 100 demandes à la fois' });

export const requestAnswer = z.object({
  requestId: z.number(),
  reference: z.string(),
  type: z.enum(REQUEST_TYPES),
  status: z.enum(REQUEST_STATUSES),
  seasonId: z.number(),
  amount: z.number(),
  quantityKg: z.number().nullable(),
  fertilizerId: z.number().nullable(),
  industrialUserId: z.string().nullable(),
  sfdUserId: z.string().nullable(),
  code: z.string().nullable(),
});

export const bulkAnswer = z.object({
  message: z.string(),
  done: z.number(),
  failed: z.number(),
  results: z.array(
    z.object({
      id: z.number(),
      ok: z.boolean(),
      statusCode: z.number().optional(),
      message: z.string().optional(),
      missingAmount: z.number().optional(),
      request: requestAnswer.optional(),
    }),
  ),
});

const nameOf = z.object({ id: z.string(), firstname: z.string(), lastname: z.string() });

export const requestListAnswer = z.object({
  count: z.number(),
  values: z.array(
    z.object({
      id: z.number(),
      reference: z.string(),
      type: z.enum(REQUEST_TYPES),
      status: z.enum(REQUEST_STATUSES),
      seasonId: z.number(),
      seasonLabel: z.string(),
      linkId: z.number().nullable(),
      amount: z.number(),
      quantity: z.number().nullable(),
      code: z.string().nullable(),
      deliveryStatus: z.enum(['CREATED', 'DONE']).nullable(),
      receivedAt: z.string().nullable(),
      reason: z.string().nullable(),
      createdAt: z.string(),
      decidedAt: z.string().nullable(),
      fertilizer: z
        .object({
          id: z.number(),
          label: z.string(),
          type: z.object({ id: z.number(), label: z.string() }).nullable(),
        })
        .nullable(),
      grower: z.object({
        id: z.string(),
        reference: z.string(),
        user: nameOf.extend({ phone: z.string().nullable() }),
      }),
      handler: nameOf.nullable(),
    }),
  ),
});

export const filingGrowersQuery = z.object({
  q: storableString().trim().max(200).optional(),
  limit: z.coerce.number({ message: INVALID }).int().min(1).max(100).default(20),
});

export const filingOptionsAnswer = z.object({
  growers: z.array(
    z.object({
      id: z.string(),
      reference: z.string(),
      firstname: z.string(),
      lastname: z.string(),
      phone: z.string().nullable(),
    }),
  ),
  seasons: z.array(
    z.object({
      id: z.number(),
      label: z.string(),
      from: z.string(),
      to: z.string(),
      fertilizers: z.array(
        z.object({
          fertilizerId: z.number(),
          label: z.string(),
          typeLabel: z.string(),
          unitAmount: z.number(),
        }),
      ),
    }),
  ),
  sfds: z.array(z.object({ userId: z.string(), name: z.string() })),
});
