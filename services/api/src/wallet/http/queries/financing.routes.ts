import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { callerOf, targetUser } from './caller.js';
import { readPage } from './page.js';
import {
  iso,
  likePattern,
  listOf,
  listQuery,
  security,
  tags,
  transactionStatus,
  userIdParams,
  userRef,
} from './schemas.js';
import { narrowDb } from '@filiere/platform';
import type { WalletDb } from '../../tables.js';
import { identityUsers } from '../../../identity/index.js';

const financingSchema = z.object({
  reference: z.string(),
  amount: z.number(),
  status: z.string(),
  createdAt: z.string(),
  /** SENT: the user funded `aggregator`; RECEIVED: `aggregator` funded the user. */
  direction: z.enum(['SENT', 'RECEIVED']),
  aggregator: userRef,
});

/** GET financement/user/{id}: financings the user gave or received. */
export function financingRoutes(scope: FastifyInstance): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = () => narrowDb<WalletDb>()(app.deps.db);

  app.get(
    '/financement/user/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Financements donnés ou reçus par un utilisateur',
        params: userIdParams,
        querystring: listQuery.extend({ status: transactionStatus.optional() }),
        response: { 200: listOf(financingSchema) },
      },
      preHandler: app.authenticate,
    },
    async (request) => {
      const caller = await callerOf(app, request);
      const user = await targetUser(db(), caller, request.params.id);
      const { status, q } = request.query;
      const base = () => {
        let query = db()
          .selectFrom('wallet_financings as f')
          .leftJoin(identityUsers().as('a'), (j) =>
            j.on(
              sql`a.id::text`,
              '=',
              sql`case when f.from_user_id = ${user.id} then f.to_user_id else f.from_user_id end`,
            ),
          )
          .where((eb) =>
            eb.or([eb('f.from_user_id', '=', user.id), eb('f.to_user_id', '=', user.id)]),
          );
        if (status) query = query.where('f.status', '=', status);
        if (q) {
          const like = likePattern(q);
          query = query.where((eb) =>
            eb.or([
              eb('f.reference', 'ilike', like),
              eb(sql`a.firstname || ' ' || a.lastname`, 'ilike', like),
            ]),
          );
        }
        return query;
      };
      const page = await readPage(
        base()
          .selectAll('f')
          .select(['a.id as a_id', 'a.firstname as a_firstname', 'a.lastname as a_lastname'])
          .orderBy('f.created_at', 'desc')
          .orderBy('f.reference'),
        base(),
        request.query,
      );
      return {
        data: page.rows.map((r) => ({
          reference: r.reference,
          amount: Number(r.amount),
          status: r.status,
          createdAt: iso(r.created_at)!,
          direction: r.from_user_id === user.id ? ('SENT' as const) : ('RECEIVED' as const),
          aggregator: r.a_id
            ? { id: r.a_id, firstname: r.a_firstname!, lastname: r.a_lastname! }
            : null,
        })),
        count: page.count,
      };
    },
  );
}
