import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sql } from 'kysely';
import { callerOf, isAdminRole } from './caller.js';
import { moneyOf } from './money.js';
import { security, tags } from './schemas.js';
import { narrowDb } from '@filiere/platform';
import type { WalletDb } from '../../tables.js';

const COLUMNS = [
  'count_debit',
  'total_debit',
  'count_supplies',
  'total_supplies',
  'count_transfer',
  'total_transfer',
] as const;

const totalsSchema = z.object({
  countDebit: z.number(),
  totalDebit: z.number(),
  countSupplies: z.number(),
  totalSupplies: z.number(),
  countTransfer: z.number(),
  totalTransfer: z.number(),
});

/** GET transaction/stats: reporting totals, of the caller's wallet or (admins) of every wallet. */
export function reportingRoutes(scope: FastifyInstance): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/transaction/stats',
    {
      schema: {
        tags,
        security,
        summary:
          'Totaux : retraits, approvisionnements et transferts (les siens ; tous pour les administrateurs)',
        response: { 200: totalsSchema },
      },
      preHandler: app.authenticate,
    },
    async (request) => {
      const caller = await callerOf(app, request);
      let query = narrowDb<WalletDb>()(app.deps.db)
        .selectFrom('wallet_reporting_totals')
        // Sums as text (numeric in PostgreSQL): exact in the database, never a failed read.
        .select(COLUMNS.map((c) => sql<string>`coalesce(sum(${sql.ref(c)}), 0)::text`.as(c)));
      if (!isAdminRole(caller.role)) query = query.where('wallet_id', '=', caller.walletId);
      const r = await query.executeTakeFirstOrThrow();
      return {
        countDebit: moneyOf(r.count_debit),
        totalDebit: moneyOf(r.total_debit),
        countSupplies: moneyOf(r.count_supplies),
        totalSupplies: moneyOf(r.total_supplies),
        countTransfer: moneyOf(r.count_transfer),
        totalTransfer: moneyOf(r.total_transfer),
      };
    },
  );
}
