import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError, storableString } from '@filiere/platform';
import type { WalletDeps } from '../commands/context.js';
import { loadSupply, markPending } from '../commands/supply-commands.js';
import { systemActor } from '../domain/index.js';
import { recordSandboxPayment, type SandboxStore } from '../providers/sandbox.js';
import { notFoundPage, widgetPage } from '../sandbox/widget-page.js';
import { nonJsonResponse } from '../../kernel/responses.js';

const DEFAULT_RETURN = '/approvisionnements';

/** Only a path of this site (no scheme, no `//host`): the widget never redirects elsewhere. */
export function safeReturnTo(value: unknown): string {
  return typeof value === 'string' && /^\/(?![/\\])[^\s]*$/.test(value) && value.length <= 500
    ? value
    : DEFAULT_RETURN;
}

/** `returnTo` with the widget's outcome appended as query parameters. */
export function returnUrl(
  returnTo: string,
  params: { transactionId: string; reference: string; status: string },
): string {
  const url = new URL(returnTo, 'http://x');
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * The sandbox provider's widget, a public page of ours (the payer needs no account):
 * `GET /api/sandbox/pay/{reference}?returnTo=/path` shows the amount and reference with
 * 'Payer' / 'Refuser'; the POST records the sandbox transaction, marks the supply PENDING
 * when paid, and answers 303 to `returnTo?transactionId=…&reference=…&status=…`, where the
 * web app calls `GET /api/supply/verify/{transactionId}`.
 */
export async function registerSandboxWidget(
  app: FastifyInstance,
  deps: WalletDeps,
  store: SandboxStore,
): Promise<void> {
  await app.register(async (scope) => {
    // The page's form posts urlencoded fields; only this scope parses them.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const params = z.object({ reference: storableString().min(1).max(100) });

    r.get(
      '/api/sandbox/pay/:reference',
      {
        schema: {
          tags: ['sandbox'],
          summary: 'The sandbox payment widget (HTML page)',
          params,
          querystring: z.object({ returnTo: storableString().max(500).optional() }),
          response: {
            200: nonJsonResponse('The payment page', 'text/html'),
            404: nonJsonResponse('No such supply awaiting an online payment', 'text/html'),
          },
        },
      },
      async (request, reply) => {
        reply.type('text/html; charset=utf-8');
        try {
          const supply = await loadSupply(deps, request.params.reference);
          if (supply.method === 'BANK') throw new NotFoundError('Approvisionnement introuvable');
          return widgetPage({
            reference: supply.reference!,
            amount: supply.amount,
            status: supply.status!,
            returnTo: safeReturnTo(request.query.returnTo),
          });
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
          return reply.status(404).send(notFoundPage());
        }
      },
    );

    r.post(
      '/api/sandbox/pay/:reference',
      {
        schema: {
          tags: ['sandbox'],
          summary: 'The payer’s choice on the sandbox widget; 303 back to the app',
          params,
          body: z.object({
            outcome: z.enum(['SUCCESS', 'FAILED']),
            returnTo: storableString().max(500).optional(),
          }),
        },
      },
      async (request, reply) => {
        const supply = await loadSupply(deps, request.params.reference);
        if (supply.method === 'BANK') throw new NotFoundError('Approvisionnement introuvable');
        const transaction = await recordSandboxPayment(store, {
          reference: supply.reference!,
          amount: supply.amount,
          outcome: request.body.outcome,
        });
        if (transaction.status === 'SUCCESS') {
          await markPending(deps, systemActor, supply.reference!);
        }
        // The payment is known here: it is credited (or failed) even if the page that follows
        // never calls `supply/verify` (closed, or under another address).
        await deps.jobs.scheduleSupplyCheck(supply.reference!, {
          transactionId: transaction.transactionId,
          now: true,
        });
        return reply.redirect(
          returnUrl(safeReturnTo(request.body.returnTo), {
            transactionId: transaction.transactionId,
            reference: transaction.reference,
            status: transaction.status,
          }),
          303,
        );
      },
    );
  });
}
