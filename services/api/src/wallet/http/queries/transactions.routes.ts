import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ForbiddenError, NotFoundError, narrowDb } from '@filiere/platform';
import { callerOf, isAdminRole, targetUser } from './caller.js';
import { findTransaction, listTransactions, withdrawalPayout } from './transactions.repository.js';
import {
  listOf,
  listQuery,
  security,
  partyRef,
  tags,
  transactionStatus,
  userIdParams,
} from './schemas.js';
import type { WalletDb } from '../../tables.js';

const transactionSchema = z.object({
  id: z.string(),
  reference: z.string(),
  operationType: z.string(),
  direction: z.string(),
  amount: z.number(),
  status: z.string(),
  reason: z.string().nullable(),
  paymentMeans: z.string().nullable(),
  walletId: z.string(),
  createdAt: z.string(),
  source: z.object({ walletId: z.string().nullable(), user: partyRef }),
  destination: z.object({
    walletId: z.string().nullable(),
    user: partyRef,
    phone: z.string().nullable(),
    payout: z.string().nullable(),
  }),
});

/** One side of a payment as the detail shows it: current name, NIP and phone. */
const partySchema = z.object({
  name: z.string().nullable(),
  nip: z.string().nullable(),
  phone: z.string().nullable(),
});

const detailSchema = z.object({
  id: z.string(),
  reference: z.string(),
  amount: z.number(),
  date: z.string(),
  operationType: z.string(),
  /** IN: the caller's wallet received the money; OUT: it paid. */
  direction: z.string(),
  status: z.string(),
  /** MOBILE_MONEY, CARD or BANK (supplies, withdrawals, refunds); WALLET wallet to wallet. */
  paymentMeans: z.string(),
  reason: z.string().nullable(),
  /** Who paid (the other user of an incoming transfer or payment; empty otherwise). */
  sender: partySchema,
  /** Who received (the other user of an outgoing transfer or payment). */
  beneficiary: partySchema,
  /** A withdrawal's (or its refund's) mobile-money number or bank account. */
  payoutAccount: z.string().nullable(),
  transaction: transactionSchema,
});

const transactionsQuery = listQuery.extend({
  status: transactionStatus.optional(),
  direction: z.enum(['IN', 'OUT'], { error: 'Valeur invalide' }).optional(),
});

type Person = z.infer<typeof partyRef>;
const party = (user: Person) => ({
  name: user ? `${user.firstname} ${user.lastname}` : null,
  nip: user?.nip ?? null,
  phone: user?.phone ?? null,
});

/** GET transaction, transaction/{id}, transaction/user/{id}: read `wallet_transactions`. */
export function transactionRoutes(scope: FastifyInstance): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = () => narrowDb<WalletDb>()(app.deps.db);

  app.get(
    '/transaction',
    {
      schema: {
        tags,
        security,
        summary: 'Transactions de l’appelant (toutes pour les administrateurs)',
        querystring: transactionsQuery,
        response: { 200: listOf(transactionSchema) },
      },
      preHandler: app.authenticate,
    },
    async (request) => {
      const caller = await callerOf(app, request);
      const walletId = isAdminRole(caller.role) ? undefined : caller.walletId;
      return listTransactions(db(), { ...request.query, walletId });
    },
  );

  app.get(
    '/transaction/user/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Transactions d’un utilisateur (lui-même, ou un administrateur)',
        params: userIdParams,
        querystring: transactionsQuery,
        response: { 200: listOf(transactionSchema) },
      },
      preHandler: app.authenticate,
    },
    async (request) => {
      const caller = await callerOf(app, request);
      const user = await targetUser(db(), caller, request.params.id);
      return listTransactions(db(), { ...request.query, walletId: user.walletId });
    },
  );

  app.get(
    '/transaction/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Détail d’une transaction (paiementShow)',
        params: z.object({
          id: z.coerce
            .number({ error: 'Identifiant invalide' })
            .int()
            .positive()
            .max(2 ** 53),
        }),
        response: { 200: detailSchema },
      },
      preHandler: app.authenticate,
    },
    async (request) => {
      const caller = await callerOf(app, request);
      const tx = await findTransaction(db(), request.params.id);
      if (!tx) throw new NotFoundError('Transaction introuvable');
      if (tx.walletId !== caller.walletId && !isAdminRole(caller.role)) {
        throw new ForbiddenError('Cette transaction ne vous concerne pas');
      }
      // A row names its own wallet on one side: the detail shows the other side's user, never
      // the caller as its own sender or beneficiary. Names are joined now, not projected.
      const out = tx.direction === 'OUT';
      const payoutAccount =
        tx.operationType === 'REFUND'
          ? await withdrawalPayout(db(), tx.walletId, tx.reference)
          : tx.destination.payout;
      return {
        id: tx.id,
        reference: tx.reference,
        amount: tx.amount,
        date: tx.createdAt,
        operationType: tx.operationType,
        direction: tx.direction,
        status: tx.status,
        // Supplies, withdrawals and refunds carry their means; the rest moved wallet to wallet.
        paymentMeans: tx.paymentMeans ?? 'WALLET',
        reason: tx.reason,
        sender: party(out ? null : tx.source.user),
        beneficiary: party(out ? tx.destination.user : null),
        payoutAccount,
        transaction: tx,
      };
    },
  );
}
