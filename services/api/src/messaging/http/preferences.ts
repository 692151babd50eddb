import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GROWER_ROUTE_ROLES, growerUserInReach } from '../../actors/index.js';
import type { ProductTables } from '../../kernel/tables.js';
import type { Kysely } from 'kysely';
import { SmsOptOuts } from '../optout/opt-outs.js';

const tags = ['messaging'];
const security = [{ bearer: [] }];
const params = z.object({ id: z.uuid('Identifiant de producteur invalide') });
const preferences = z.object({
  /** True: the grower receives no optional SMS (monthly summary, notices). */
  optedOut: z.boolean(),
  changedAt: z.string().nullable(),
  /** STAFF (a staff member switched it) or SMS (the grower's STOP); null: never chosen. */
  source: z.enum(['STAFF', 'SMS']).nullable(),
});
const body = z.object({ optedOut: z.boolean('Choix invalide') });

/**
 * `GET /api/messaging/growers/{id}/sms-preferences` (those who may read the grower) and `PUT`
 * (those who manage growers: super admin, admin, cluster manager, within their reach): a
 * grower's refusal of optional SMS. Codes and receipts are sent whatever it says.
 */
export function preferencesRoutes(scope: FastifyInstance, db: Kysely<ProductTables>): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const optOuts = SmsOptOuts.of(db);
  const guard = (roles: readonly (typeof GROWER_ROUTE_ROLES.read)[number][]) => {
    const handlers = [scope.requireRoles(...roles)];
    return { onRequest: handlers, preHandler: handlers };
  };

  app.get(
    '/messaging/growers/:id/sms-preferences',
    {
      schema: {
        tags,
        security,
        summary:
          'Le choix d’un producteur de ne pas recevoir les SMS facultatifs (récapitulatif mensuel, avis) ; les codes et les reçus sont toujours envoyés',
        params,
        response: { 200: preferences },
      },
      ...guard(GROWER_ROUTE_ROLES.read),
    },
    async (request) => {
      const userId = await growerUserInReach(db, request.actor!, request.params.id, 'read');
      return optOuts.of(userId);
    },
  );

  app.put(
    '/messaging/growers/:id/sms-preferences',
    {
      schema: {
        tags,
        security,
        summary:
          'Désabonne le producteur des SMS facultatifs (ou le réabonne) : super administrateur, administrateur, gestionnaire de cluster, dans leur périmètre',
        params,
        body,
        response: { 200: preferences },
      },
      ...guard(GROWER_ROUTE_ROLES.manage),
    },
    async (request) => {
      const userId = await growerUserInReach(db, request.actor!, request.params.id, 'manage');
      await optOuts.set(userId, request.body.optedOut, { staffUserId: request.actor!.id });
      return optOuts.of(userId);
    },
  );
}
