import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, isAdminRole } from './caller.js';
import { security, tags } from './schemas.js';

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
      let query = app.deps.db
        .selectFrom('wallet_reporting_totals')
        .select((eb) => [
          eb.fn.coalesce(eb.fn.sum<string>('count_debit'), eb.lit(0)).as('count_debit'),
          eb.fn.coalesce(eb.fn.sum<string>('total_debit'), eb.lit(0)).as('total_debit'),
          eb.fn.coalesce(eb.fn.sum<string>('count_supplies'), eb.lit(0)).as('count_supplies'),
          eb.fn.coalesce(eb.fn.sum<string>('total_supplies'), eb.lit(0)).as('total_supplies'),
          eb.fn.coalesce(eb.fn.sum<string>('count_transfer'), eb.lit(0)).as('count_transfer'),
          eb.fn.coalesce(eb.fn.sum<string>('total_transfer'), eb.lit(0)).as('total_transfer'),
        ]);
      if (!isAdminRole(caller.role)) query = query.where('wallet_id', '=', caller.walletId);
      const r = await query.executeTakeFirstOrThrow();
      return {
        countDebit: Number(r.count_debit),
        totalDebit: Number(r.total_debit),
        countSupplies: Number(r.count_supplies),
        totalSupplies: Number(r.total_supplies),
        countTransfer: Number(r.count_transfer),
        totalTransfer: Number(r.total_transfer),
      };
    },
  );
}
