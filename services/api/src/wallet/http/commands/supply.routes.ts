import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { storableString } from '@filiere/platform';
import type { WalletDeps } from '../../commands/context.js';
import {
  cancelSupplyByReference,
  createSupply,
  rejectBankSupplyByReference,
  supplyWidget,
  validateBankSupplyByReference,
  verifySupplyTransaction,
} from '../../commands/supply-commands.js';
import { mailSupplyRejected, walletMailer } from '../../commands/supply-notices.js';
import { widgetScriptUrl } from '../../providers/widget-csp.js';
import { supplyCreated, supplySummary, supplyWidgetAnswer } from './answers.js';
import {
  amountUpTo,
  idempotencyHeaders,
  referenceParam,
  supplyBody,
  validateBankSupplyBody,
} from './schemas.js';
import { ROLE } from '../../../kernel/roles.js';

const key = (headers: { 'idempotency-key'?: string }) => headers['idempotency-key'];

/** Who may top up a wallet (the spec's approvisionnements screen: admins and aggregators). */
export const SUPPLY_ROLES = [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.INDUSTRIAL] as const;

const supplyReference = storableString().min(1).max(100);

/** The payer's mobile money number for the widget (mobile money and card supplies). */
const payerPhone = storableString()
  .max(30)
  .nullish()
  .describe('The payer’s mobile money number, 8 or 10 digits (+229 optional); given to the widget');

const rejectBody = z.object({
  reference: supplyReference.describe('The bank supply’s reference'),
  reason: storableString()
    .trim()
    .min(1, { message: 'Ce champ est obligatoire' })
    .max(500, { message: 'Au plus 500 caractères' })
    .describe('Why, as the requester will read it'),
});

/**
 * Supply commands: create, verify (widget), the widget again ('Réessayer'), cancel (payer),
 * validate or reject a bank supply (super admin).
 */
export function registerSupplyCommandRoutes(app: FastifyInstance, deps: WalletDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const amount = amountUpTo(deps.limits.maxCommandAmount);
  const { config, db, logger } = app.deps;
  const mailer = walletMailer(config, db, logger);
  if (mailer.close) app.addHook('onClose', async () => mailer.close!());

  r.post(
    '/api/supply',
    {
      schema: {
        tags: ['supply'],
        summary: 'Start a top-up of my wallet: a reference, and the bank account or the widget',
        headers: idempotencyHeaders,
        body: supplyBody.extend({ amount, phone: payerPhone }),
        response: { 201: supplyCreated },
      },
      preHandler: app.requireRoles(...SUPPLY_ROLES),
    },
    async (request, reply) => {
      const result = await createSupply(deps, request.actor!, request.body, key(request.headers));
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
    '/api/supply/payment-provider',
    {
      schema: {
        tags: ['supply'],
        summary:
          'The payment provider of mobile-money and card supplies and its checkout script (none for the sandbox)',
        response: {
          200: z.object({
            provider: z.enum(['sandbox', 'kkiapay', 'fedapay']),
            script: z.string().nullable(),
          }),
        },
      },
      preHandler: app.requireRoles(...SUPPLY_ROLES),
    },
    // The web loads the script before the payer submits (KKIAPAY_WIDGET_SCRIPT_URL /
    // FEDAPAY_CHECKOUT_SCRIPT_URL), and opens the sandbox's page in a window on the click.
    async () => ({ provider: deps.provider.name, script: widgetScriptUrl(config) }),
  );

  r.get(
    '/api/supply/verify/:transactionId',
    {
      schema: {
        tags: ['supply'],
        summary: 'Verify the widget’s transaction with the provider; credits once',
        headers: idempotencyHeaders,
        params: z.object({ transactionId: storableString().min(1).max(200) }),
        querystring: z.object({
          reference: storableString()
            .min(1)
            .max(100)
            .optional()
            .describe('The supply reference, used when the provider does not know the transaction'),
        }),
        response: { 200: supplySummary },
      },
      preHandler: app.requireRoles(...SUPPLY_ROLES),
    },
    async (request) =>
      verifySupplyTransaction(
        deps,
        request.actor!,
        request.params.transactionId,
        request.query.reference,
        key(request.headers),
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
        response: { 200: supplySummary },
      },
      preHandler: app.requireRoles(ROLE.SUPER_ADMIN),
    },
    async (request) =>
      validateBankSupplyByReference(
        deps,
        request.actor!,
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
        response: { 200: supplySummary },
      },
      preHandler: app.requireRoles(ROLE.SUPER_ADMIN),
    },
    async (request) =>
      validateBankSupplyByReference(
        deps,
        request.actor!,
        {
          retypedReference: request.body.reference,
          ...(request.body.supplyReference ? { reference: request.body.supplyReference } : {}),
        },
        key(request.headers),
      ),
  );

  r.get(
    '/api/supply/widget/:reference',
    {
      schema: {
        tags: ['supply'],
        summary:
          'The payment widget again for my mobile-money or card supply still waiting for payment (INIT)',
        params: z.object({ reference: supplyReference }),
        response: { 200: supplyWidgetAnswer },
      },
      preHandler: app.requireRoles(...SUPPLY_ROLES),
    },
    async (request) => supplyWidget(deps, request.actor!, request.params.reference),
  );

  r.post(
    '/api/supply/cancel/:reference',
    {
      schema: {
        tags: ['supply'],
        summary: 'Cancel my mobile-money or card supply not paid yet (INIT → FAILED, cancelled)',
        headers: idempotencyHeaders,
        params: z.object({ reference: supplyReference }),
        response: { 200: supplySummary },
      },
      preHandler: app.requireRoles(...SUPPLY_ROLES),
    },
    async (request) =>
      cancelSupplyByReference(deps, request.actor!, request.params.reference, key(request.headers)),
  );

  r.post(
    '/api/supply/reject-bank-supply',
    {
      schema: {
        tags: ['supply'],
        summary:
          'Reject a bank supply with a reason (super admin; INIT/PENDING → FAILED); the requester is told',
        headers: idempotencyHeaders,
        body: rejectBody,
        response: { 200: supplySummary },
      },
      preHandler: app.requireRoles(ROLE.SUPER_ADMIN),
    },
    async (request) => {
      const { rejected, ownerUserId, ...answer } = await rejectBankSupplyByReference(
        deps,
        request.actor!,
        request.body,
        key(request.headers),
      );
      // Mailed once, when this call recorded the rejection (not on a repeat).
      if (rejected && ownerUserId) {
        await mailSupplyRejected(
          { db: deps.db, mailer, logger, publicUrl: config.PUBLIC_URL },
          ownerUserId,
          {
            reference: answer.reference,
            amount: answer.amount,
            reason: request.body.reason,
          },
        );
      }
      return answer;
    },
  );
}
