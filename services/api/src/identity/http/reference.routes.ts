import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { IdentityContext } from '../context.js';
import { partyOf } from '../users.service.js';
import { ROUTE_ROLES, visibleRoles } from '../permissions.js';
import { clusterSchema, listOf, organizationListItem, roleSchema } from '../schemas.js';

const tags = ['identity'];
const security = [{ bearer: [] }];

/** Lists for the user form: roles, clusters, organisations. */
export function referenceRoutes(scope: FastifyInstance, ctx: IdentityContext): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/role',
    {
      schema: {
        tags,
        security,
        summary: 'Les rôles (sans le super administrateur pour les autres rôles)',
        response: { 200: z.array(roleSchema) },
      },
      preHandler: ctx.guard(),
    },
    async (request) => visibleRoles(partyOf(request.actor!), await ctx.repo.listRoles()),
  );

  app.get(
    '/clusters',
    {
      schema: { tags, security, summary: 'Les clusters', response: { 200: listOf(clusterSchema) } },
      preHandler: ctx.guard(...ROUTE_ROLES.referenceLists),
    },
    async () => {
      const data = await ctx.repo.listClusters();
      return { data, count: data.length };
    },
  );

  app.get(
    '/organizations',
    {
      schema: {
        tags,
        security,
        summary: 'Les organisations',
        response: { 200: listOf(organizationListItem) },
      },
      preHandler: ctx.guard(...ROUTE_ROLES.referenceLists),
    },
    async () => {
      const data = await ctx.repo.listOrganizations();
      return { data, count: data.length };
    },
  );
}
