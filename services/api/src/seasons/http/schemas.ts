import { z } from 'zod';
import { storableString } from '@filiere/platform';
import { hasAtMostTwoDecimals } from '../domain/index.js';

const INVALID = 'Entré non valide';
const REQUIRED = 'Ce champ est obligatoire';

const int = (min: number, max: number) =>
  z
    .number({ message: INVALID })
    .int({ message: INVALID })
    .min(min, { message: `Le champ doit avoir une valeur supérieure ou égale à ${min}` })
    .max(max, { message: `Le champ doit avoir une valeur inférieure ou égale à ${max}` });

const decimal = (min: number, max: number) =>
  z
    .number({ message: INVALID })
    .min(min, { message: `Le champ doit avoir une valeur supérieure ou égale à ${min}` })
    .max(max, { message: `Le champ doit avoir une valeur inférieure ou égale à ${max}` })
    .refine(hasAtMostTwoDecimals, { message: 'Deux décimales au plus' });

const date = z
  .string({ message: REQUIRED })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Date invalide (AAAA-MM-JJ)' });

/** A season id (the original's paths name seasons by number). */
export const seasonIdParams = z.object({
  id: z.coerce.number({ message: 'Identifiant invalide' }).int().positive().max(2_147_483_647),
});
const uuid = z.guid({ message: 'Identifiant invalide' });
export const userIdParams = z.object({ userId: uuid });
export const seasonUserParams = z.object({ id: seasonIdParams.shape.id, userId: uuid });

/** Optional on the seasons' commands: a repeat with the same key has one effect. */
export const idempotencyHeaders = z.looseObject({
  'idempotency-key': storableString()
    .min(1)
    .max(200, { message: 'Idempotency-Key : au plus 200 caractères' })
    .optional()
    .describe('Optional. A repeat of the same request with the same key returns the first answer'),
});

export const fertilizerLineBody = z.object({
  fertilizerId: int(1, 2_147_483_647),
  /** The fertilizer's type; taken from the catalogue when absent. */
  typeId: int(1, 2_147_483_647).optional(),
  amount: int(1, 100_000_000).describe('a_i: F CFA per kg'),
  index: decimal(1, 1_000_000).describe('d_i: kg per hectare (2 decimals)'),
});

export const seasonBody = z.object({
  label: storableString({ message: REQUIRED }).trim().min(1, { message: REQUIRED }).max(200),
  from: date,
  to: date,
  unitProductAmount: int(1, 1_000_000).describe('P: F CFA per kg of pineapple'),
  productionIndex: decimal(1, 1_000).describe('Y: tonnes of pineapple per hectare'),
  quotity: decimal(0, 100).describe('q: percent'),
  fertilizers: z.array(fertilizerLineBody).max(50).default([]),
});

/** Only the fields given change (an absent `fertilizers` keeps the lines). */
export const seasonPatchBody = seasonBody
  .extend({ fertilizers: z.array(fertilizerLineBody).max(50) })
  .partial();

export const attachBody = z.object({
  industrialId: uuid,
  quantity: int(1, 1_000_000_000).describe('Desired quantity (kg)'),
});

export const acceptBody = z
  .object({ quantity: int(1, 1_000_000_000).optional().describe('Another quantity (kg)') })
  .default({});

export const amountsQuery = z.object({
  quantity: z.coerce.number({ message: INVALID }).pipe(int(1, 1_000_000_000)),
});

const page = {
  q: storableString().trim().max(200).optional(),
  page: z.coerce.number({ message: INVALID }).int().min(1).max(100_000).default(1),
  limit: z.coerce.number({ message: INVALID }).int().min(1).max(100).default(10),
};

export const seasonListQuery = z.object({
  ...page,
  status: z.enum(['NEW', 'CREATED', 'ACCEPTED', 'REJECTED'], { message: INVALID }).optional(),
});

export const industrialSeasonsQuery = z.object({
  ...page,
  status: z.enum(['PENDING', 'CONFIRMED', 'CANCELED'], { message: INVALID }).optional(),
});

const fertilizerLine = z.object({
  fertilizerId: z.number(),
  typeId: z.number(),
  amount: z.number(),
  index: z.number(),
});

export const seasonAnswer = z.object({
  seasonId: z.number(),
  label: z.string(),
  from: z.string(),
  to: z.string(),
  unitProductAmount: z.number(),
  productionIndex: z.number(),
  quotity: z.number(),
  fertilizers: z.array(fertilizerLine),
  isActive: z.boolean(),
});

export const amountsAnswer = z.object({
  quantity: z.number(),
  productionAmount: z.number(),
  fertilizerAmount: z.number(),
  minSupplyAmount: z.number(),
});

export const linkAnswer = amountsAnswer.extend({
  linkId: z.number(),
  seasonId: z.number(),
  userId: z.string(),
  status: z.enum(['PENDING', 'CONFIRMED', 'CANCELED']),
  expiresAt: z.string(),
});

export const acceptAnswer = linkAnswer.extend({
  funding: z.object({
    availableBalance: z.number(),
    minSupplyAmount: z.number(),
    funded: z.boolean(),
    shortfall: z.number(),
  }),
});

const seasonView = z.object({
  id: z.number(),
  label: z.string(),
  from: z.string(),
  to: z.string(),
  unitProductAmount: z.number(),
  productionIndex: z.number(),
  quotity: z.number(),
  isActive: z.boolean(),
  status: z.string(),
  createdAt: z.string(),
  industrialsCount: z.number(),
  quantity: z.number(),
  productionAmount: z.number(),
  fertilizerAmount: z.number(),
  minSupplyAmount: z.number(),
});

export const seasonListAnswer = z.object({ data: z.array(seasonView), count: z.number() });

export const linkView = amountsAnswer.extend({
  linkId: z.number(),
  seasonId: z.number(),
  userId: z.string(),
  user: z.object({ firstname: z.string(), lastname: z.string(), phone: z.string().nullable() }),
  status: z.string(),
  attachedAt: z.string(),
  expiresAt: z.string(),
  acceptedAt: z.string().nullable(),
});

export const seasonDetailAnswer = seasonView.extend({
  fertilizers: z.array(
    fertilizerLine.extend({ label: z.string().nullable(), typeLabel: z.string().nullable() }),
  ),
  industrials: z.array(linkView),
});

export const linksAnswer = z.object({ data: z.array(linkView), count: z.number() });

export const fundedLinkAnswer = linkView.extend({
  funding: acceptAnswer.shape.funding,
});

export const industrialSeasonsAnswer = z.object({
  data: z.array(
    amountsAnswer.extend({
      id: z.number(),
      label: z.string(),
      from: z.string(),
      to: z.string(),
      isActive: z.boolean(),
      linkId: z.number(),
      status: z.string(),
      expiresAt: z.string(),
      acceptedAt: z.string().nullable(),
    }),
  ),
  count: z.number(),
});

export const invitationsAnswer = z.object({
  data: z.array(
    z.object({
      linkId: z.number(),
      seasonId: z.number(),
      label: z.string(),
      from: z.string(),
      to: z.string(),
      quantity: z.number(),
      attachedAt: z.string(),
      expiresAt: z.string(),
    }),
  ),
  count: z.number(),
});

export const messageAnswer = z.object({ message: z.string() });
