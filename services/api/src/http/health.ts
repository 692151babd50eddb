import { sql, type Kysely } from 'kysely';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ReadinessCheck } from '../kernel/app-deps.js';
import { metricsAccess } from './operator-access.js';

/**
 * `/api/health`: the process answers (public). `/api/ready`: every dependency answers
 * (database, Redis when configured, and whatever later parts register), 200 or 503. In
 * production the checks' details (names, errors, projection positions) go only to the
 * holders of /api/metrics' credentials (METRICS_TOKEN or an admin's JWT); without an
 * Authorization header a probe gets the status alone.
 */
/** 200 `ready` or 503 `unavailable`; `checks` for a caller who sees the details. */
const readiness = z.object({
  status: z.enum(['ready', 'unavailable']),
  checks: z
    .record(
      z.string(),
      z.looseObject({
        ok: z.boolean(),
        details: z.unknown().optional(),
        error: z.string().optional(),
      }),
    )
    .optional()
    .describe('Each dependency’s answer, by name'),
});

export function registerHealthRoutes(
  app: FastifyInstance,
  checks: Record<string, ReadinessCheck>,
): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const production = app.deps.config.NODE_ENV === 'production';
  const access = metricsAccess(app);
  /** Whether the caller sees the details; wrong credentials are a 401/403, not a summary. */
  const seesDetails = async (request: FastifyRequest): Promise<boolean> => {
    if (!production) return true;
    if (request.headers.authorization === undefined) return false;
    await access(request);
    return true;
  };
  typed.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Le processus répond',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  typed.get(
    '/api/ready',
    {
      schema: {
        tags: ['health'],
        summary: 'Les dépendances répondent (base, Redis, projections)',
        // Anonymous, or with the credentials that show the details.
        security: [{}, { bearer: [] }],
        description:
          'En production, le détail des vérifications demande le Bearer METRICS_TOKEN ou le jeton d’un administrateur.',
        response: { 200: readiness, 503: readiness },
      },
    },
    async (request, reply) => {
      const details = await seesDetails(request);
      const results: Record<string, { ok: boolean; details?: unknown; error?: string }> = {};
      await Promise.all(
        Object.entries(checks).map(async ([name, check]) => {
          try {
            results[name] = await withTimeout(check(), 3000);
          } catch (error) {
            results[name] = {
              ok: false,
              error: error instanceof Error ? error.message : String(error),
            };
          }
        }),
      );
      const ready = Object.values(results).every((r) => r.ok);
      const status = ready ? 'ready' : 'unavailable';
      return reply
        .status(ready ? 200 : 503)
        .send(details ? { status, checks: results } : { status });
    },
  );
}

export function databaseCheck<DB>(db: Kysely<DB>): ReadinessCheck {
  return async () => {
    await sql`select 1`.execute(db);
    return { ok: true };
  };
}

export function redisCheck(redis: { ping(): Promise<string> }): ReadinessCheck {
  return async () => ({ ok: (await redis.ping()) === 'PONG' });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
