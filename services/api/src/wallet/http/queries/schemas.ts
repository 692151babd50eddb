import { z } from 'zod';
import { storableString } from '@filiere/platform';

const invalid = { error: 'Valeur invalide' };

export const listQuery = z.object({
  page: z.coerce.number(invalid).int(invalid).min(1, invalid).default(1),
  /** 10 by default; -1 returns every row. */
  limit: z.coerce
    .number(invalid)
    .int(invalid)
    .min(-1, invalid)
    .max(1000, invalid)
    .refine((n) => n !== 0, invalid)
    .default(10),
  q: storableString().trim().max(100, { error: 'Au plus 100 caractères' }).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

export const transactionStatus = z.enum(['SUCCESS', 'FAILED', 'PENDING'], invalid);
export const supplyStatus = z.enum(['INIT', 'PENDING', 'SUCCESS', 'FAILED'], invalid);

export const uuid = z.uuid({ error: 'Identifiant invalide' });
export const userIdParams = z.object({ id: uuid });

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), count: z.number() });

export const userRef = z
  .object({ id: z.string(), firstname: z.string(), lastname: z.string() })
  .nullable();

/** A side of a transaction: the user with the NIP and phone read from `users`. */
export const partyRef = z
  .object({
    id: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    nip: z.string().nullable(),
    phone: z.string().nullable(),
  })
  .nullable();

/** Offset and limit of a page (limit -1: everything). */
export function pageOf(q: ListQuery): { offset: number; limit: number | undefined } {
  if (q.limit === -1) return { offset: 0, limit: undefined };
  return { offset: (q.page - 1) * q.limit, limit: q.limit };
}

/** `%q%` for ILIKE, with the wildcards of `q` escaped. */
export const likePattern = (q: string): string => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const iso = (d: Date | string | null): string | null =>
  d === null ? null : d instanceof Date ? d.toISOString() : new Date(d).toISOString();

export const tags = ['wallet'];
export const security = [{ bearer: [] }];
