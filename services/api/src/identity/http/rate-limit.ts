import { createRequire } from 'node:module';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { TooManyRequestsError, type Logger } from '@filiere/platform';
import { localAttemptCounter, redisAttemptCounter } from './failed-attempts.js';

interface Window {
  max: number;
  windowMs: number;
}

/**
 * Two counters per route and kind of route: one per client address (IPv6 by /64), one per
 * e-mail the request is about (or, signed in, per user).
 * - `attempt`: sign-in and password routes (guessing a password or a link's token). Only
 *   failures count: an attempt that succeeds (a 2xx or 3xx answer) is given back to both
 *   counters, so an account is locked by 10 failed attempts in 15 minutes, never by its
 *   owner signing in. A success clears nothing else: the failures stay counted until their
 *   window ends (else each sign-in of the owner would give a guesser 10 more tries).
 * - `mail`: routes that send a mail or tell whether an address is known (registration,
 *   invitation resend, reset link): enumeration and mail bombing.
 * - `linkCheck`: the check of an invitation or reset link when its page opens.
 */
export const LIMITS = {
  attempt: {
    perIp: { max: 10, windowMs: 60_000 },
    perSubject: { max: 10, windowMs: 15 * 60_000 },
  },
  mail: {
    perIp: { max: 10, windowMs: 60 * 60_000 },
    perSubject: { max: 5, windowMs: 60 * 60_000 },
  },
  /** The set-password pages check their link when they open (nothing is spent). */
  linkCheck: {
    perIp: { max: 10, windowMs: 60_000 },
    perSubject: { max: 20, windowMs: 15 * 60_000 },
  },
} as const satisfies Record<string, { perIp: Window; perSubject: Window }>;

export type LimitKind = keyof typeof LIMITS;

/** The French answer of a 429, with the wait rounded up to the minute. */
export function tooManyMessage(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Trop de tentatives. Réessayez dans ${minutes} minute${minutes > 1 ? 's' : ''}.`;
}

/** Redis keys of the shared counters (REDIS_URL set). */
export const REDIS_PREFIX = 'filiere:rate-limit:';

/** The e-mail (or, signed in, the user) an attempt is about. */
function subjectOf(request: FastifyRequest): string | undefined {
  const body = request.body as { email?: unknown } | undefined;
  const params = request.params as { email?: unknown } | undefined;
  const email = body?.email ?? params?.email;
  if (typeof email === 'string') return email.trim().toLowerCase();
  return (request.user as { sub?: string } | undefined)?.sub;
}

type Limiter = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Registers `@fastify/rate-limit` in the identity scope (`global: false`), for the `mail` and
 * `linkCheck` limiters (`attemptLimit(scope, kind)`), and answers the `attempt` limiter, which
 * counts failures only (failed-attempts.ts). With Redis the counters live there, shared by
 * every API process; without it, in the process.
 */
export async function registerAttemptLimit(scope: FastifyInstance): Promise<Limiter> {
  const { redis, logger } = scope.deps;
  await scope.register(rateLimit, {
    global: false,
    ...(redis ? { store: sharedStore(redis, logger) } : {}),
  });
  const counter = redis ? redisAttemptCounter(redis, REDIS_PREFIX, logger) : localAttemptCounter();
  const limits = LIMITS.attempt;
  /** The counters each request took, given back when it succeeds. */
  const taken = new WeakMap<FastifyRequest, string[]>();
  // onSend: before the answer leaves, so the next attempt already finds the count given back.
  scope.addHook('onSend', async (request, reply, payload) => {
    const keys = taken.get(request);
    if (keys && reply.statusCode < 400) await Promise.all(keys.map((k) => counter.giveBack(k)));
    return payload;
  });
  /**
   * Counts the request per address, then, if the address is within its limit, per subject:
   * 429 with a French message and Retry-After when either is over. Counting the subject only
   * for addresses within their limit keeps one client from locking many accounts at once.
   */
  return async function limitAttempts(request, reply) {
    const subject = subjectOf(request);
    const counters: { name: string; window: Window; id: string }[] = [
      { name: 'ip', window: limits.perIp, id: normalizeIP(request.ip) },
    ];
    if (subject) counters.push({ name: 'subject', window: limits.perSubject, id: subject });
    const keys: string[] = [];
    taken.set(request, keys);
    for (const { name, window, id } of counters) {
      const key = `attempt|${name}|${request.routeOptions.url}|${id}`;
      const { count, ttlMs } = await counter.take(key, window.windowMs);
      keys.push(key);
      if (count > window.max) {
        reply.header('retry-after', Math.max(1, Math.ceil(ttlMs / 1000)));
        throw new TooManyRequestsError(tooManyMessage(ttlMs));
      }
    }
  };
}

/**
 * A preHandler (it runs after validation, so the body's e-mail is known) counting the
 * request per address, then, if the address is within its limit, per subject: 429 with a
 * French message and Retry-After when either is over. Counting the subject only for
 * addresses within their limit keeps one client from locking many accounts at once.
 */
export function attemptLimit(scope: FastifyInstance, kind: Exclude<LimitKind, 'attempt'>): Limiter {
  const limits = LIMITS[kind];
  const counter = (name: 'ip' | 'subject', window: Window, key: (r: FastifyRequest) => string) =>
    scope.createRateLimit({
      max: window.max,
      timeWindow: window.windowMs,
      keyGenerator: (r) => `${kind}|${name}|${r.routeOptions.url}|${key(r)}`,
    });
  const perIp = counter('ip', limits.perIp, (r) => normalizeIP(r.ip));
  const perSubject = counter('subject', limits.perSubject, (r) => subjectOf(r) ?? '');
  return async function limitAttempts(request, reply) {
    for (const check of [perIp, perSubject]) {
      if (check === perSubject && !subjectOf(request)) return;
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) {
        reply.header('retry-after', result.ttlInSeconds);
        throw new TooManyRequestsError(tooManyMessage(result.ttl));
      }
    }
  };
}

interface Store {
  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
    max: number,
  ): void;
}
type StoreCtor<A extends unknown[]> = new (...args: A) => Store;

// The plugin's own stores (no typings of their own).
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore') as StoreCtor<
  [boolean, boolean, Redis, string]
>;
const LocalStore = require('@fastify/rate-limit/store/LocalStore') as StoreCtor<
  [boolean, boolean, number]
>;

/**
 * Counters in Redis, so N API processes share one limit. While Redis does not answer, each
 * process counts on its own (the limits hold per process) instead of failing the request.
 */
function sharedStore(redis: Redis, logger: Logger) {
  let failing = false;
  return class SharedStore {
    private readonly shared = new RedisStore(false, false, redis, REDIS_PREFIX);
    private readonly local = new LocalStore(false, false, 5000);

    incr(...[key, callback, timeWindow, max]: Parameters<Store['incr']>): void {
      this.shared.incr(
        key,
        (error, result) => {
          if (!error) {
            if (failing) logger.info('rate limits: Redis answers again, counters shared');
            failing = false;
            return callback(null, result);
          }
          if (!failing) {
            logger.warn({ err: error }, 'rate limits: Redis does not answer, counting per process');
          }
          failing = true;
          this.local.incr(key, callback, timeWindow, max);
        },
        timeWindow,
        max,
      );
    }

    child(): SharedStore {
      return new SharedStore();
    }
  };
}
