import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WalletDeps } from '../../commands/context.js';
import {
  createSupply,
  validateBankSupplyByReference,
  verifySupplyTransaction,
} from '../../commands/supply-commands.js';
import {
  idempotencyHeaders,
  referenceParam,
  supplyBody,
  validateBankSupplyBody,
} from './schemas.js';

const key = (headers: { 'idempotency-key'?: string }) => headers['idempotency-key'];

/** Who may top up a wallet (the spec's approvisionnements screen: admins and aggregators). */
export const SUPPLY_ROLES = ['ROLE_SUPER_ADMIN', 'ROLE_ADMIN', 'ROLE_INDUSTRIAL'] as const;

/** Supply commands: create, verify (widget), validate a bank supply (super admin). */
export function registerSupplyCommandRoutes(app: FastifyInstance, deps: WalletDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/supply',
    {
      schema: {
        tags: ['supply'],
        summary: 'Start a top-up of my wallet: a reference, and the bank account or the widget',
        headers: idempotencyHeaders,
        body: supplyBody,
      },
      preHandler: app.requireRoles(...SUPPLY_ROLES),
    },
    async (request, reply) => {
      const result = await createSupply(deps, request.user.sub, request.body, key(request.headers));
      return reply.status(201).send(result);
    },
  );

  r.get(
    '/api/supply/bank-account',
    {
      schema: {
        tags: ['supply'],
        summary: 'The one bank accepted for top-ups by transfer: its name and account number',
        response: {
          200: z.object({ accountNumber: z.string(), bankName: z.string() }),
        },
      },
      preHandler: app.requireRoles(...SUPPLY_ROLES),
    },
    // From SUPPLY_BANK_NAME / SUPPLY_BANK_ACCOUNT; the web shows it instead of a constant.
    async () => ({ accountNumber: deps.bank.accountNumber, bankName: deps.bank.name }),
  );

  r.get(
    '/api/supply/verify/:transactionId',
    {
      schema: {
        tags: ['supply'],
        summary: 'Verify the widget’s transaction with the provider; credits once',
        params: z.object({ transactionId: z.string().min(1).max(200) }),
        querystring: z.object({
          reference: z
            .string()
            .min(1)
            .max(100)
            .optional()
            .describe('The supply reference, used when the provider does not know the transaction'),
        }),
      },
      preHandler: app.requireRoles(...SUPPLY_ROLES),
    },
    async (request) =>
      verifySupplyTransaction(
        deps,
        request.user.sub,
        request.params.transactionId,
        request.query.reference,
      ),
  );

  r.get(
    '/api/supply/validate-bank-supply/:id',
    {
      schema: {
        tags: ['supply'],
        summary: 'Validate a bank supply by its reference (super admin; credits once)',
        headers: idempotencyHeaders,
        params: referenceParam,
      },
      preHandler: app.requireRoles('ROLE_SUPER_ADMIN'),
    },
    async (request) =>
      validateBankSupplyByReference(
        deps,
        request.user.sub,
        { retypedReference: request.params.id },
        key(request.headers),
      ),
  );

  r.post(
    '/api/supply/validate-bank-supply',
    {
      schema: {
        tags: ['supply'],
        summary: 'Validate a bank supply by the retyped reference (super admin; credits once)',
        headers: idempotencyHeaders,
        body: validateBankSupplyBody,
      },
      preHandler: app.requireRoles('ROLE_SUPER_ADMIN'),
    },
    async (request) =>
      validateBankSupplyByReference(
        deps,
        request.user.sub,
        {
          retypedReference: request.body.reference,
          ...(request.body.supplyReference ? { reference: request.body.supplyReference } : {}),
        },
        key(request.headers),
      ),
  );
}
