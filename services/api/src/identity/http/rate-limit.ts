import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TooManyRequestsError } from '@filiere/platform';

export const RATE_LIMIT = { max: 10, timeWindowMs: 60_000 } as const;
export const TOO_MANY = 'Trop de tentatives, réessayez dans une minute';

/** The e-mail (or, signed in, the user) an attempt is about. */
function subjectOf(request: FastifyRequest): string | undefined {
  const body = request.body as { email?: unknown } | undefined;
  const params = request.params as { email?: unknown } | undefined;
  const email = body?.email ?? params?.email;
  if (typeof email === 'string') return email.toLowerCase();
  return (request.user as { sub?: string } | undefined)?.sub;
}

/**
 * `@fastify/rate-limit` (registered in the identity scope, `global: false`) with
 * two counters per route: 10/min per client IP and 10/min per e-mail. Answers a
 * preHandler that runs after validation, so the body's e-mail is known.
 */
export async function registerAttemptLimit(scope: FastifyInstance) {
  await scope.register(rateLimit, { global: false });
  const options = (kind: 'ip' | 'email', key: (r: FastifyRequest) => string) => ({
    max: RATE_LIMIT.max,
    timeWindow: RATE_LIMIT.timeWindowMs,
    keyGenerator: (r: FastifyRequest) => `${kind}|${r.routeOptions.url}|${key(r)}`,
  });
  const perIp = scope.createRateLimit(options('ip', (r) => r.ip));
  const perSubject = scope.createRateLimit(options('email', (r) => subjectOf(r) ?? ''));
  return async function limitAttempts(request: FastifyRequest): Promise<void> {
    const results = [await perIp(request)];
    if (subjectOf(request)) results.push(await perSubject(request));
    if (results.some((r) => !r.isAllowed && r.isExceeded)) {
      throw new TooManyRequestsError(TOO_MANY);
    }
  };
}
