import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createSms, membersOf } from '../../../identity/index.js';
import type { AppDeps } from '../../../kernel/app-deps.js';
import { ROLE } from '../../../kernel/roles.js';
import { REQUESTERS } from '../domain/payout-request.js';
import { PayoutRequestsService } from '../service.js';
import {
  historyQuery,
  idParams,
  listOf,
  listQuery,
  rejectBody,
  requestBody,
  requestSchema,
  userParams,
} from './schemas.js';

const tags = ['payout-requests'];
const security = [{ bearer: [] }];

/**
 * Four-eyes payout-account requests under /api/payout-requests. The guard runs at
 * onRequest too, so a caller without the role gets 403 before its body is validated.
 */
export async function registerPayout(app: FastifyInstance & { deps: AppDeps }): Promise<void> {
  const { config, db, logger } = app.deps;
  const service = new PayoutRequestsService(
    db,
    membersOf(app),
    createSms(config, db, logger),
    logger,
  );
  const requesters = app.requireRoles(...REQUESTERS);
  const asRequester = { onRequest: requesters, preHandler: requesters };
  const superAdmin = app.requireRoles(ROLE.SUPER_ADMIN);
  const asSuperAdmin = { onRequest: superAdmin, preHandler: superAdmin };

  await app.register(
    async (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();

      r.post(
        '/payout-requests',
        {
          schema: {
            tags,
            security,
            summary:
              'Demande le changement du compte de paiement d’un membre (producteur, transporteur, coopérative, fournisseur) : le compte complet demandé (mobile money, banque et numéro ou aucun des deux). Rien ne change avant l’approbation d’un super administrateur autre que l’auteur ; l’ancien et le nouveau numéro sont prévenus par SMS. 409 si une demande est déjà en attente',
            body: requestBody,
            response: { 201: requestSchema },
          },
          ...asRequester,
        },
        async (request, reply) =>
          reply.code(201).send(await service.request(request.actor!, request.body)),
      );

      r.get(
        '/payout-requests',
        {
          schema: {
            tags,
            security,
            summary:
              'Demandes de changement de compte (super administrateur) : toutes (les demandes en attente d’abord) ou celles d’un statut, recherche sur le membre et l’auteur, paginées',
            querystring: listQuery,
            response: { 200: listOf(requestSchema) },
          },
          ...asSuperAdmin,
        },
        async (request) => service.list(request.query),
      );

      r.get(
        '/payout-requests/user/:userId',
        {
          schema: {
            tags,
            security,
            summary:
              'Historique des demandes de changement de compte d’un membre (le personnel qui voit ce membre)',
            params: userParams,
            querystring: historyQuery,
            response: { 200: listOf(requestSchema) },
          },
          ...asRequester,
        },
        async (request) => service.history(request.actor!, request.params.userId, request.query),
      );

      r.post(
        '/payout-requests/:id/approve',
        {
          schema: {
            tags,
            security,
            summary:
              'Approuve une demande (super administrateur autre que son auteur) : le nouveau compte remplace l’ancien, l’ancien et le nouveau numéro sont prévenus par SMS',
            params: idParams,
            response: { 200: requestSchema },
          },
          ...asSuperAdmin,
        },
        async (request) => service.approve(request.actor!, request.params.id),
      );

      r.post(
        '/payout-requests/:id/reject',
        {
          schema: {
            tags,
            security,
            summary:
              'Rejette une demande avec son motif (super administrateur autre que son auteur) : le compte reste inchangé',
            params: idParams,
            body: rejectBody,
            response: { 200: requestSchema },
          },
          ...asSuperAdmin,
        },
        async (request) => service.reject(request.actor!, request.params.id, request.body.reason),
      );
    },
    { prefix: '/api' },
  );
}
