import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ForbiddenError, narrowDb } from '@filiere/platform';
import { pgPushPublisher, redisPushPublisher } from '@filiere/projections';
import type { HttpRegistration } from '../../kernel/module.js';
import { ROLE } from '../../kernel/roles.js';
import { integrityLoop } from './loop.js';
import { IntegrityVerifier, integrityView, type VerifierTables } from './verifier.js';

/** Who reads the integrity panel: the auditor and the administrators. */
export const INTEGRITY_READERS = [ROLE.ACCOUNTING, ROLE.SUPER_ADMIN, ROLE.ADMIN] as const;

const integrityAnswer = z.object({
  status: z.enum(['OK', 'BROKEN']),
  lastVerifiedPosition: z.number(),
  verifiedAt: z.string().nullable(),
  brokenAt: z.number().nullable(),
  reason: z.string().nullable(),
  brokenDetectedAt: z.string().nullable(),
  headPosition: z.number(),
  sweeps: z.number(),
});

declare module 'fastify' {
  interface FastifyInstance {
    /** The audit area's background verification (tests drive it). */
    ledgerAudit: { verifier: IntegrityVerifier };
  }
}

/**
 * `GET /api/audit/integrity` (read-only), and without REDIS_URL the verification on an
 * in-process loop (with REDIS_URL the worker runs it: the area's `jobs`).
 */
export const registerAudit: HttpRegistration = async (app) => {
  const { config, logger, redis } = app.deps;
  const db = narrowDb<VerifierTables>()(app.deps.db);
  const verifier = new IntegrityVerifier(
    db,
    redis ? redisPushPublisher(redis) : pgPushPublisher(app.deps.db),
    logger,
  );
  app.decorate('ledgerAudit', { verifier });
  if (!config.REDIS_URL && !app.deps.backgroundThread) {
    const loop = integrityLoop(verifier, logger);
    if (config.NODE_ENV !== 'test') app.addHook('onReady', async () => loop.start());
    app.addHook('onClose', async () => loop.stop());
  }
  const readers = app.requireRoles(...INTEGRITY_READERS);
  await app.register(
    async (scope) => {
      scope.withTypeProvider<ZodTypeProvider>().get(
        '/audit/integrity',
        {
          schema: {
            tags: ['audit'],
            security: [{ bearer: [] }],
            summary:
              'Intégrité du registre : dernière position vérifiée de la chaîne de hachage, date de vérification, OK ou BROKEN (auditeur, administrateurs)',
            response: { 200: integrityAnswer },
          },
          onRequest: readers,
          preHandler: readers,
        },
        async (request) => {
          // An organisation's accountant is not the platform's auditor.
          if (request.actor!.role_code === ROLE.ACCOUNTING && request.actor!.organization_id) {
            throw new ForbiddenError('Réservé à l’auditeur de la plateforme');
          }
          return integrityView(db);
        },
      );
    },
    { prefix: '/api' },
  );
};
