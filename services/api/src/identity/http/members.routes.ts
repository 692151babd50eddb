import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ForbiddenError, NotFoundError } from '@filiere/platform';
import type { IdentityContext } from '../context.js';
import { mayResetPin } from '../field-rules.js';
import { membersOf } from '../members.js';
import { missingScope, ROUTE_ROLES } from '../permissions.js';
import { idParams } from '../schemas.js';
import { partyOf } from '../users.service.js';

const tags = ['users'];
const security = [{ bearer: [] }];

export const PIN_SENT_MESSAGE = 'Le nouveau code PIN a été envoyé par SMS';

/**
 * Members' routes of identity. The ban and reinstatement of a grower are the growers area's
 * (GET /users/{id}/bannish-grower/{growerId}, DELETE /grower/{id}, POST /grower/{id}/reactivate:
 * actors/growers), which deactivates its row and the user together through `setActive`.
 */
export function membersRoutes(scope: FastifyInstance, ctx: IdentityContext): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const members = membersOf(scope);

  app.get(
    '/users/:id/reset-pin',
    {
      schema: {
        tags,
        security,
        summary:
          'Réinitialise le code PIN d’un producteur (5 chiffres, envoyé par SMS à son téléphone, stocké haché) : le gestionnaire de son cluster seulement',
        params: idParams,
        response: { 200: z.object({ statusCode: z.literal(200), message: z.string() }) },
      },
      preHandler: ctx.guard(...ROUTE_ROLES.resetPin),
    },
    async (request) => {
      const actor = partyOf(request.actor!);
      const target = await ctx.repo.findById(request.params.id);
      if (!target) throw new NotFoundError('Utilisateur introuvable');
      const verdict = mayResetPin(actor, partyOf(target));
      if (!verdict.allowed) {
        throw new ForbiddenError(verdict.message, {
          reason: missingScope(actor) ?? 'FIELD_RULE',
        });
      }
      await members.resetPin(target.id, actor.id);
      return { statusCode: 200 as const, message: PIN_SENT_MESSAGE };
    },
  );
}
