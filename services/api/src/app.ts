import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TrustProxy } from '@filiere/platform';
import { registerCommandPipeline } from './commands.js';
import { registerAuth } from './http/auth.js';
import { registerErrorHandler } from './http/error-handler.js';
import { databaseCheck, redisCheck, registerHealthRoutes } from './http/health.js';
import { registerOpenApi } from './http/openapi.js';
import { registerRequestLog } from './http/request-log.js';
import { validatorCompiler } from './http/validator.js';
import { registerWebApp } from './http/web-static.js';
import type { AppDeps } from './kernel/app-deps.js';
import { product } from './modules.js';
import { registerRealtime } from './realtime/index.js';
import { userDirectory, userLoader } from './identity/index.js';
import { widgetContentSecurity } from './wallet/index.js';
import { mapContentSecurity } from './sites/index.js';

// French default messages for every zod schema (the UI's language).
z.config(z.locales.fr());

export type { AppDeps, BackgroundThreadHandle } from './kernel/app-deps.js';

/** Builds the HTTP application without listening; tests use `app.inject`. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Our own one-line-per-request log replaces Fastify's two lines (request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: 2 * 1024 * 1024,
    // Off unless TRUST_PROXY names the proxies (see fastifyTrustProxy).
    trustProxy: fastifyTrustProxy(deps.config.TRUST_PROXY),
  });
  app.decorate('deps', deps);
  // Zod schemas, after a check that no input string holds text PostgreSQL cannot store.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // Security headers; CORS closed unless CORS_ORIGINS lists origins (the web app is same-origin).
  // Scripts: ours, and the configured payment provider's checkout script origin only.
  const widget = widgetContentSecurity(deps.config);
  // Maps: the tile/style origin (MAP_STYLE_URL) and the geocoder's (GEOCODER_URL).
  const map = mapContentSecurity(deps.config);
  const secure = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...widget.scriptSrc],
        frameSrc: ["'self'", ...widget.frameSrc],
        imgSrc: ["'self'", 'data:', 'blob:', ...map.imgSrc],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'", 'ws:', 'wss:', ...map.connectSrc],
        workerSrc: ["'self'", 'blob:'],
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) => secure(request.raw, reply.raw, () => done()));
  await app.register(cors, {
    origin: deps.config.corsOrigins.length ? deps.config.corsOrigins : false,
  });
  // Answers compressed (brotli, else gzip) when the client accepts it and they are worth it (1 KiB
  // or more, of a compressible type: JSON, CSV, text; not XLSX, PDF or ZIP, already compressed).
  // The web build's files come compressed already (web-static.ts): an answer that has its
  // Content-Encoding is left alone. A websocket's upgrade has no reply to compress.
  await app.register(compress, { global: true, encodings: ['br', 'gzip'], threshold: 1024 });
  registerRequestLog(app);
  await registerOpenApi(app);

  registerHealthRoutes(app, {
    database: databaseCheck(deps.db),
    ...(deps.redis ? { redis: redisCheck(deps.redis) } : {}),
    ...deps.readiness,
  });

  await registerAuth(app, deps.config.JWT_SECRET, userLoader(deps.db), userDirectory(deps.db));
  registerCommandPipeline(app, product, deps.eventStore);
  // Each context's routes, in the order of the module list (modules.ts).
  for (const module of product.modules) {
    if (module.http) await (await module.http())(app);
  }
  await registerRealtime(app);

  if (deps.webDir) await registerWebApp(app, deps.webDir);
  return app;
}

type Middleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void;

/**
 * Helmet's headers middleware, built ONCE from its options (CSP parsed once): @fastify/helmet
 * 13 calls `helmet(options)` on every request, rebuilding it and parsing the CSP each time
 * (~20 µs a request). Helmet is @fastify/helmet's own dependency, loaded from it.
 */
function securityHeaders(options: Record<string, unknown>): Middleware {
  const fromFastifyHelmet = createRequire(
    createRequire(import.meta.url).resolve('@fastify/helmet'),
  );
  const helmet = fromFastifyHelmet('helmet') as (options: Record<string, unknown>) => Middleware;
  return helmet(options);
}

/**
 * TRUST_PROXY as Fastify's `trustProxy`. A hop count becomes "trust the n nearest hops":
 * Fastify 5 ignores a bare number (it cannot check the peer), and only the operator knows
 * that nothing but the proxy chain reaches the API.
 */
export function fastifyTrustProxy(
  setting: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}
