import { z } from 'zod';
import { narrowDb } from '@filiere/platform';
import { sql, type Kysely } from 'kysely';
import type { IdentityTables } from '../../identity/index.js';
import type { ProductTables } from '../../kernel/tables.js';
import type { GrowersTables } from '../growers/tables.js';
import { likePattern } from './queries.js';
import type { ListQuery } from './schemas.js';
import { identityUsers } from '../../identity/index.js';

/**
 * GET organization/{id}/growers: the active growers of a cooperative, read from the growers
 * area's tables (same context, read-only; the growers area owns them). Kept in this one file.
 */
export const organizationGrowerSchema = z.object({
  id: z.string(),
  reference: z.string(),
  userId: z.string(),
  user: z.object({
    id: z.string(),
    lastname: z.string(),
    firstname: z.string(),
    phone: z.string().nullable(),
  }),
  /** Sum of the plots' sown areas, ha (exact decimal text). */
  areaSown: z.string(),
});

export async function organizationGrowers(
  pool: Kysely<ProductTables>,
  organizationId: string,
  query: ListQuery,
) {
  const db = narrowDb<GrowersTables & IdentityTables>()(pool);
  let q = db
    .selectFrom('growers as g')
    .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')
    .where('g.cooperative_id', '=', organizationId)
    .where('g.deactivated_at', 'is', null);
  if (query.q) {
    const like = likePattern(query.q);
    q = q.where((eb) =>
      eb.or([
        eb('u.lastname', 'ilike', like),
        eb('u.firstname', 'ilike', like),
        eb('u.phone', 'ilike', like),
        eb('g.reference', 'ilike', like),
      ]),
    );
  }
  const countRow = await q
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  let page = q
    .select([
      'g.id',
      'g.reference',
      'g.user_id',
      'u.lastname',
      'u.firstname',
      'u.phone',
      sql<string>`(select coalesce(sum(p.area_sown), 0)::text from plots p where p.grower_id = g.id)`.as(
        'area_sown',
      ),
    ])
    .orderBy('u.lastname')
    .orderBy('g.id');
  if (query.limit !== -1) page = page.limit(query.limit).offset((query.page - 1) * query.limit);
  const rows = await page.execute();
  return {
    data: rows.map((r) => ({
      id: r.id,
      reference: r.reference,
      userId: r.user_id,
      user: { id: r.user_id, lastname: r.lastname, firstname: r.firstname, phone: r.phone },
      areaSown: String(r.area_sown ?? '0'),
    })),
    count: Number(countRow.n),
  };
}
