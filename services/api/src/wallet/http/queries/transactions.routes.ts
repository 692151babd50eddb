import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ForbiddenError, NotFoundError } from '@filiere/platform';
import { callerOf, isAdminRole, targetUser } from './caller.js';
import { findTransaction, listTransactions } from './transactions.repository.js';
import {
  listOf,
  listQuery,
  security,
  partyRef,
  tags,
  transactionStatus,
  userIdParams,
} from './schemas.js';

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

const detailSchema = z.object({
  id: z.string(),
  reference: z.string(),
  amount: z.number(),
  date: z.string(),
  operationType: z.string(),
  status: z.string(),
  paymentMeans: z.string(),
  reason: z.string().nullable(),
  beneficiary: z.object({
    name: z.string().nullable(),
    nip: z.string().nullable(),
    phone: z.string().nullable(),
  }),
  transaction: transactionSchema,
});

const transactionsQuery = listQuery.extend({ status: transactionStatus.optional() });

/** GET transaction, transaction/{id}, transaction/user/{id}: read `wallet_transactions`. */
export function transactionRoutes(scope: FastifyInstance): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = () => app.deps.db;

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
      const beneficiary = tx.destination.user;
      return {
        id: tx.id,
        reference: tx.reference,
        amount: tx.amount,
        date: tx.createdAt,
        operationType: tx.operationType,
        status: tx.status,
        // The spec shows every payment as mobile money; card/bank supplies keep their means.
        paymentMeans: tx.paymentMeans ?? 'MOBILE_MONEY',
        reason: tx.reason,
        beneficiary: {
          name: beneficiary ? `${beneficiary.firstname} ${beneficiary.lastname}` : null,
          nip: beneficiary?.nip ?? null,
          phone: tx.destination.phone ?? tx.destination.payout,
        },
        transaction: tx,
      };
    },
  );
}
