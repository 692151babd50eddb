import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WalletDeps } from '../../commands/context.js';
import { makeFinancing, makeTransfer, makeWithdrawal } from '../../commands/wallet-commands.js';
import { financingAnswer, transferAnswer, withdrawalAnswer } from './answers.js';
import {
  amountUpTo,
  debitBody,
  financementBody,
  idempotencyHeaders,
  idSchema,
  transferBody,
} from './schemas.js';
import { ROLE, ROLE_CODES } from '../../../kernel/roles.js';

/** Who moves money from its own wallet: every role but the read-only auditor (ROLE_ACCOUNTING). */
const MONEY_COMMAND_ROLES = ROLE_CODES.filter((role) => role !== ROLE.ACCOUNTING);

const key = (headers: { 'idempotency-key'?: string }) => headers['idempotency-key'];

/** Wallet commands: transfer, withdrawal, financing; and the ceilings they check. */
export function registerWalletCommandRoutes(app: FastifyInstance, deps: WalletDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const amount = amountUpTo(deps.limits.maxCommandAmount);

  r.post(
    '/api/wallet/make-transfer',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Transfer from my wallet to another user’s (422 with missingAmount when short)',
        headers: idempotencyHeaders,
        body: transferBody.extend({ amount }),
        response: { 201: transferAnswer },
      },
      preHandler: app.requireRoles(...MONEY_COMMAND_ROLES),
      // The transfer names the read guards of its two users: no round trip to read them.
      config: { actorFromDirectory: true },
    },
    async (request, reply) => {
      const result = await app.withGuardedActor(request, (me, fresh) =>
        makeTransfer(deps, me, request.body, key(request.headers), fresh),
      );
      return reply.status(201).send(result);
    },
  );

  r.post(
    '/api/wallet/make-debit/:id',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Withdraw to my mobile money or bank account (DEBIT PENDING, then paid out)',
        headers: idempotencyHeaders,
        params: z.object({ id: idSchema.describe('My user id or wallet id') }),
        body: debitBody.extend({ amount }),
        response: { 201: withdrawalAnswer },
      },
      preHandler: app.requireRoles(...MONEY_COMMAND_ROLES),
    },
    async (request, reply) => {
      const result = await makeWithdrawal(
        deps,
        request.actor!,
        request.params.id,
        request.body,
        key(request.headers),
      );
      return reply.status(201).send(result);
    },
  );

  r.get(
    '/api/wallet/limits',
    {
      schema: {
        tags: ['wallet'],
        summary:
          'The money ceilings (MAX_COMMAND_AMOUNT, MAX_BALANCE), which the money forms check before sending',
        security: [{ bearer: [] }],
        response: {
          200: z.object({ maxCommandAmount: z.number().int(), maxBalance: z.number().int() }),
        },
      },
      preHandler: app.authenticate,
    },
    async () => ({
      maxCommandAmount: deps.limits.maxCommandAmount,
      maxBalance: deps.limits.maxBalance,
    }),
  );

  r.post(
    '/api/financement',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Fund another aggregator (aggregators only)',
        headers: idempotencyHeaders,
        body: financementBody.extend({ amount }),
        response: { 201: financingAnswer },
      },
      preHandler: app.requireRoles(ROLE.INDUSTRIAL),
    },
    async (request, reply) => {
      const result = await makeFinancing(deps, request.actor!, request.body, key(request.headers));
      return reply.status(201).send(result);
    },
  );
}
