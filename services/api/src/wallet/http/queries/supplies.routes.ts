import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { callerOf, targetUser } from './caller.js';
import { moneyOf, moneyText } from './money.js';
import { readPage } from './page.js';
import {
  iso,
  likePattern,
  listOf,
  listQuery,
  security,
  supplyStatus,
  tags,
  userIdParams,
  type ListQuery,
} from './schemas.js';
import { ROLE } from '../../../kernel/roles.js';
import { narrowDb } from '@filiere/platform';
import type { WalletDb } from '../../tables.js';
import { identityUsers } from '../../../identity/index.js';

/** Who asked for the supply, joined from `users` at read time (names are never projected). */
const requesterSchema = z
  .object({
    id: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    organization: z.string().nullable().describe('The requester’s organisation (denomination)'),
  })
  .nullable();

const supplySchema = z.object({
  reference: z.string(),
  paymentMethod: z.string(),
  amount: z.number(),
  status: z.string(),
  bank: z.string().nullable(),
  bankAccountNumber: z.string().nullable(),
  walletId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Why a FAILED supply failed: CANCELLED by its payer, REJECTED by a super admin, else null. */
  failureCode: z.enum(['CANCELLED', 'REJECTED', 'EXPIRED']).nullable(),
  failureReason: z.string().nullable(),
  payerPhone: z.string().nullable(),
  user: requesterSchema,
});

const methodsOf = (type: string | undefined): string[] | undefined => {
  switch (type) {
    case 'momo-card':
      return ['MOBILE_MONEY', 'CARD'];
    case 'bank':
    case 'BANK':
      return ['BANK'];
    case 'MOBILE_MONEY':
    case 'CARD':
      return [type];
    default:
      return undefined;
  }
};

interface SupplyFilter extends ListQuery {
  status?: string | undefined;
  methods?: string[] | undefined;
  userId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

async function listSupplies(db: Kysely<WalletDb>, f: SupplyFilter) {
  const base = () => {
    let q = db
      .selectFrom('wallet_supplies as s')
      .leftJoin(identityUsers().as('u'), (j) =>
        j.on(sql`u.id::text`, '=', sql.ref('s.owner_user_id')),
      )
      .leftJoin('organizations as o', 'o.id', 'u.organization_id');
    if (f.userId) q = q.where('s.owner_user_id', '=', f.userId);
    if (f.methods) q = q.where('s.method', 'in', f.methods);
    if (f.status) q = q.where('s.status', '=', f.status);
    if (f.from) q = q.where('s.created_at', '>=', f.from);
    if (f.to) q = q.where('s.created_at', '<', f.to);
    if (f.q) {
      const like = likePattern(f.q);
      q = q.where((eb) =>
        eb.or([
          eb('s.reference', 'ilike', like),
          eb(sql`u.firstname || ' ' || u.lastname`, 'ilike', like),
          eb('o.denomination', 'ilike', like),
        ]),
      );
    }
    return q;
  };
  const page = await readPage(
    base()
      .selectAll('s')
      .select([
        'u.id as u_id',
        'u.firstname as u_firstname',
        'u.lastname as u_lastname',
        'o.denomination as o_denomination',
      ])
      .orderBy('s.created_at', 'desc')
      .orderBy('s.reference'),
    base(),
    f,
  );
  return {
    data: page.rows.map((r) => ({
      reference: r.reference,
      paymentMethod: r.method,
      amount: Number(r.amount),
      status: r.status,
      bank: r.bank_code,
      bankAccountNumber: r.bank_account_number,
      walletId: r.wallet_id,
      createdAt: iso(r.created_at)!,
      updatedAt: iso(r.updated_at)!,
      failureCode: r.failure_code ?? null,
      failureReason: r.failure_reason ?? null,
      payerPhone: r.payer_phone ?? null,
      user: r.u_id
        ? {
            id: r.u_id,
            firstname: r.u_firstname!,
            lastname: r.u_lastname!,
            organization: r.o_denomination ?? null,
          }
        : null,
    })),
    count: page.count,
  };
}

const suppliesQuery = listQuery.extend({ status: supplyStatus.optional() });

/** GET supply/stats/{userId}, supply/{momo-card|bank}/{userId}, and the admin list GET supply. */
export function supplyRoutes(scope: FastifyInstance): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = () => narrowDb<WalletDb>()(app.deps.db);

  app.get(
    '/supply/stats/:userId',
    {
      schema: {
        tags,
        security,
        summary: 'Solde disponible, dernier approvisionnement et nombre d’approvisionnements',
        params: z.object({ userId: userIdParams.shape.id }),
        response: {
          200: z.object({
            availableBalance: z.number(),
            lastSupplyAmount: z.number().nullable(),
            lastSupplyDate: z.string().nullable(),
            supplies: z.number(),
          }),
        },
      },
      preHandler: app.authenticate,
    },
    async (request) => {
      const caller = await callerOf(app, request);
      const user = await targetUser(db(), caller, request.params.userId);
      const [stats, balance] = await Promise.all([
        db()
          .selectFrom('wallet_supply_stats')
          .selectAll()
          .where('user_id', '=', user.id)
          .executeTakeFirst(),
        db()
          .selectFrom('wallet_balances')
          .select(moneyText('available_balance').as('available_balance'))
          .where('wallet_id', '=', user.walletId)
          .executeTakeFirst(),
      ]);
      return {
        availableBalance: moneyOf(balance?.available_balance),
        lastSupplyAmount:
          stats?.last_supply_amount == null ? null : moneyOf(stats.last_supply_amount),
        lastSupplyDate: iso(stats?.last_supply_date ?? null),
        supplies: stats?.supplies ?? 0,
      };
    },
  );

  app.get(
    '/supply/:type/:userId',
    {
      schema: {
        tags,
        security,
        summary: 'Approvisionnements d’un utilisateur : momo-card (mobile money et carte) ou bank',
        params: z.object({
          type: z.enum(['momo-card', 'bank'], { error: 'Type invalide (momo-card ou bank)' }),
          userId: userIdParams.shape.id,
        }),
        querystring: suppliesQuery,
        response: { 200: listOf(supplySchema) },
      },
      preHandler: app.authenticate,
    },
    async (request) => {
      const caller = await callerOf(app, request);
      const user = await targetUser(db(), caller, request.params.userId);
      return listSupplies(db(), {
        ...request.query,
        userId: user.id,
        methods: methodsOf(request.params.type),
      });
    },
  );

  app.get(
    '/supply',
    {
      schema: {
        tags,
        security,
        summary:
          'Tous les approvisionnements (administrateurs), filtrables par type, statut, dates',
        querystring: suppliesQuery.extend({
          type: z.enum(['BANK', 'MOBILE_MONEY', 'CARD', 'momo-card', 'bank']).optional(),
          from: z.coerce.date({ error: 'Date invalide' }).optional(),
          to: z.coerce.date({ error: 'Date invalide' }).optional(),
        }),
        response: { 200: listOf(supplySchema) },
      },
      preHandler: app.requireRoles(ROLE.SUPER_ADMIN, ROLE.ADMIN),
    },
    async (request) => {
      await callerOf(app, request);
      const { type, ...rest } = request.query;
      return listSupplies(db(), { ...rest, methods: methodsOf(type) });
    },
  );
}
