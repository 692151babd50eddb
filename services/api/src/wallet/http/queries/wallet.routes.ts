import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { storableString, narrowDb } from '@filiere/platform';
import { holdReference, holdTarget } from '../../../kernel/references.js';
import { holdCode } from '../../read-model/hold-code.js';
import { callerOf, isAdminRole, requireWalletAccess } from './caller.js';
import { moneyOf, moneyText } from './money.js';
import { iso, likePattern, listOf, security, tags } from './schemas.js';
import type { WalletDb } from '../../tables.js';
import { identityUsers } from '../../../identity/index.js';

const statsSchema = z.object({
  balance: z.number(),
  availableBalance: z.number(),
  /** Spelt as the original API spells it. */
  lastTransactionAmout: z.number().nullable(),
  lastTransactionDate: z.string().nullable(),
});

const recipientSchema = z.object({
  id: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  phone: z.string().nullable(),
  walletId: z.string(),
  role: z.string(),
});

const holdsSchema = z.object({
  /** F CFA: what can be spent, what holds keep, and both (the wallet's balance). */
  available: z.number(),
  held: z.number(),
  total: z.number(),
  /** The holds that keep money, newest first (a page of them). */
  data: z.array(
    z.object({
      holdId: z.string(),
      kind: z.enum(['DELIVERY_CONTRACT', 'CARRIAGE_CONTRACT', 'INPUT_ASSIGNMENT', 'OTHER']),
      /** The record's id, for its page (a contract's uuid, an assignment's number). */
      targetId: z.string().nullable(),
      reference: z.string(),
      amount: z.number(),
      since: z.string().nullable(),
    }),
  ),
  count: z.number(),
});

/**
 * GET wallet/stats, wallet/stats/{walletId}/{year}, wallet/holds and the transfer recipient
 * search.
 */
export function walletRoutes(scope: FastifyInstance): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = () => narrowDb<WalletDb>()(app.deps.db);

  /** Balance, available balance and last transaction of a wallet, as `GET wallet/stats`. */
  const statsOf = async (walletId: string) => {
    // As text: a balance past 2^53 (a ledger from before the ceilings) must not fail the read.
    const row = await db()
      .selectFrom('wallet_balances')
      .select([
        moneyText('balance').as('balance'),
        moneyText('available_balance').as('available_balance'),
        moneyText('last_transaction_amount').as('last_transaction_amount'),
        'last_transaction_date',
      ])
      .where('wallet_id', '=', walletId)
      .executeTakeFirst();
    return {
      balance: moneyOf(row?.balance),
      availableBalance: moneyOf(row?.available_balance),
      lastTransactionAmout:
        row?.last_transaction_amount == null ? null : moneyOf(row.last_transaction_amount),
      lastTransactionDate: iso(row?.last_transaction_date ?? null),
    };
  };

  app.get(
    '/wallet/stats',
    {
      schema: {
        tags,
        security,
        summary: 'Solde, solde disponible et dernière transaction de l’appelant',
        response: { 200: statsSchema },
      },
      preHandler: app.authenticate,
    },
    async (request) => statsOf((await callerOf(app, request)).walletId),
  );

  app.get(
    '/wallet/stats/:walletId/:year',
    {
      schema: {
        tags,
        security,
        summary:
          'Statistiques d’un portefeuille (désigné par son id ou par l’id de son titulaire, comme l’appelle le client d’origine) : solde, dernière transaction et nombre de transactions par mois (janvier à décembre)',
        params: z.object({
          walletId: storableString().min(1).max(100),
          year: z.coerce.number({ error: 'Année invalide' }).int().min(2000).max(2100),
        }),
        response: {
          200: statsSchema.extend({
            walletId: z.string(),
            year: z.number(),
            paiementStats: z.array(z.number()).length(12),
          }),
        },
      },
      preHandler: app.authenticate,
    },
    async (request) => {
      const caller = await callerOf(app, request);
      const { year } = request.params;
      // The original client sends its user id here: a user's id stands for its wallet.
      const owner = await db()
        .selectFrom(identityUsers().as('users'))
        .select('wallet_id')
        .where(sql<string>`id::text`, '=', request.params.walletId)
        .executeTakeFirst();
      const walletId = (owner?.wallet_id as string | undefined) ?? request.params.walletId;
      requireWalletAccess(caller, walletId);
      const rows = await db()
        .selectFrom('wallet_monthly_counts')
        .select(['month', 'count'])
        .where('wallet_id', '=', walletId)
        .where('year', '=', year)
        .execute();
      const months = Array.from({ length: 12 }, () => 0);
      for (const r of rows) months[r.month - 1] = r.count;
      return { ...(await statsOf(walletId)), walletId, year, paiementStats: months };
    },
  );

  app.get(
    '/wallet/holds',
    {
      schema: {
        tags,
        security,
        summary:
          'Solde disponible, montant réservé et solde total de l’appelant, et ce qui réserve (contrats de livraison et de transport, fournisseurs d’intrants), paginé',
        querystring: z.object({
          page: z.coerce.number({ error: 'Page invalide' }).int().min(1).max(100_000).default(1),
          limit: z.coerce.number({ error: 'Limite invalide' }).int().min(1).max(100).default(10),
        }),
        response: { 200: holdsSchema },
      },
      preHandler: app.authenticate,
    },
    async (request) => {
      const { walletId } = await callerOf(app, request);
      const { page, limit } = request.query;
      const active = db()
        .selectFrom('wallet_holds')
        .where('wallet_id', '=', walletId)
        .where('held', '>', 0);
      const [balances, rows, total] = await Promise.all([
        db()
          .selectFrom('wallet_balances')
          .select([
            moneyText('balance').as('balance'),
            moneyText('held').as('held'),
            moneyText('available_balance').as('available_balance'),
          ])
          .where('wallet_id', '=', walletId)
          .executeTakeFirst(),
        active
          .select(['hold_id', moneyText('held').as('held'), 'purpose', 'placed_at'])
          .orderBy('placed_at', 'desc')
          .orderBy('hold_id', 'desc')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        active.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        available: moneyOf(balances?.available_balance),
        held: moneyOf(balances?.held),
        total: moneyOf(balances?.balance),
        data: rows.map((r) => {
          const target = holdTarget(r.hold_id);
          return {
            holdId: r.hold_id,
            kind: target.kind,
            targetId: target.id,
            reference: holdReference(r.hold_id, r.purpose ? holdCode(r.purpose) : undefined),
            amount: moneyOf(r.held),
            since: iso(r.placed_at),
          };
        }),
        count: Number(total.n),
      };
    },
  );

  app.get(
    '/wallet/recipients',
    {
      schema: {
        tags,
        security,
        summary:
          'Destinataires d’un transfert : tous les utilisateurs (administrateurs), sinon ceux du cluster de l’appelant ; q vide → liste vide',
        querystring: z.object({ q: storableString().trim().max(100).optional() }),
        response: { 200: listOf(recipientSchema) },
      },
      preHandler: app.authenticate,
    },
    async (request) => {
      const caller = await callerOf(app, request);
      const q = request.query.q ?? '';
      if (q === '') return { data: [], count: 0 };
      if (!isAdminRole(caller.role) && caller.clusterId === null) return { data: [], count: 0 };
      const like = likePattern(q);
      let query = db()
        .selectFrom(identityUsers().as('u'))
        .innerJoin('roles as r', 'r.id', 'u.role_id')
        .select(['u.id', 'u.firstname', 'u.lastname', 'u.phone', 'u.wallet_id', 'r.code'])
        .where('u.deleted_at', 'is', null)
        .where('u.is_active', '=', true)
        .where('u.id', '!=', caller.id)
        .where((eb) =>
          eb.or([
            eb('u.firstname', 'ilike', like),
            eb('u.lastname', 'ilike', like),
            eb('u.email', 'ilike', like),
            eb('u.phone', 'ilike', like),
          ]),
        );
      if (!isAdminRole(caller.role)) query = query.where('u.cluster_id', '=', caller.clusterId);
      const rows = await query.orderBy('u.lastname').orderBy('u.firstname').limit(20).execute();
      const data = rows.map((r) => ({
        id: r.id,
        firstname: r.firstname,
        lastname: r.lastname,
        phone: r.phone,
        walletId: r.wallet_id,
        role: r.code,
      }));
      return { data, count: data.length };
    },
  );
}
