import { z } from 'zod';
import { storableString } from '@filiere/platform';

const REQUIRED = 'Ce champ est obligatoire';
const INVALID = 'Entré non valide';
const requiredError = (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null || issue.input === '' ? REQUIRED : INVALID;

const uuid = z.uuid({ error: requiredError });
const emptyAsUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

export const userIdParams = z.object({ userId: z.uuid(INVALID) });
export const idParams = z.object({ id: z.uuid(INVALID) });

/** POST clusters/create-configs (spec §3 "Cluster config (write)"). */
export const configureBody = z.object({
  /** Optional: the signed-in manager itself (anybody else is refused). */
  managerUserId: z.preprocess(emptyAsUndefined, z.uuid(INVALID).optional()),
  clusterName: storableString({ error: requiredError })
    .trim()
    .min(1, REQUIRED)
    .max(100, 'Ce champ doit contenir au plus 100 caractères'),
  /** The aggregator: required (spec §5 "Cluster configuration"). */
  industrialUserId: z.preprocess(emptyAsUndefined, uuid),
  growersId: z.array(z.uuid(INVALID)).max(5000, INVALID).default([]),
  cooperativeIds: z.array(z.uuid(INVALID)).max(1000, INVALID).default([]),
});

export const industrialsQuery = z.object({
  q: storableString().trim().max(100, 'Ce champ doit contenir au plus 100 caractères').optional(),
  limit: z.coerce
    .number(INVALID)
    .int(INVALID)
    .min(-1, INVALID)
    .max(100, INVALID)
    .refine((n) => n !== 0, INVALID)
    .default(20),
});

const industrial = z.object({
  id: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  organization: z.object({ id: z.string(), denomination: z.string() }).nullable(),
});

export const industrialsAnswer = z.object({ data: z.array(industrial), count: z.number() });

export const configAnswer = z.object({
  cluster: z.object({ id: z.string(), label: z.string() }),
  industrial: industrial.nullable(),
  manager: z.object({ id: z.string(), firstname: z.string(), lastname: z.string() }).nullable(),
  updatedAt: z.string().nullable(),
  cooperatives: z.array(z.string()),
  growers: z.array(z.string()),
  options: z.object({
    cooperatives: z.array(
      z.object({
        id: z.string(),
        label: z.string(),
        reference: z.string(),
        clusterId: z.string().nullable(),
      }),
    ),
    growers: z.array(
      z.object({
        id: z.string(),
        clusterId: z.string().nullable(),
        user: z.object({
          firstname: z.string(),
          lastname: z.string(),
          phone: z.string().nullable(),
        }),
      }),
    ),
  }),
});

export const configuredAnswer = z.object({ message: z.string(), data: configAnswer });

export const auditAnswer = z.object({
  data: z.array(
    z.object({
      position: z.number(),
      type: z.string(),
      recordedAt: z.string(),
      actorId: z.string().nullable(),
      data: z.record(z.string(), z.unknown()),
    }),
  ),
  count: z.number(),
});
