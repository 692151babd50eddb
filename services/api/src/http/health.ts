import { sql, type Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

export type ReadinessCheck = () => Promise<{ ok: boolean; details?: unknown }>;

/**
 * `/api/health`: the process answers. `/api/ready`: every dependency answers
 * (database, Redis when configured, and whatever later parts register).
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  checks: Record<string, ReadinessCheck>,
): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
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
      schema: { tags: ['health'], summary: 'Les dépendances répondent (base, Redis, projections)' },
    },
    async (_request, reply) => {
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
      return reply
        .status(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : 'unavailable', checks: results });
    },
  );
}

export function databaseCheck(db: Kysely<any>): ReadinessCheck {
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
