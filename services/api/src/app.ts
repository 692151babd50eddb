import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { registerCommandPipeline } from './commands.js';
import { registerAuth } from './http/auth.js';
import { registerErrorHandler } from './http/error-handler.js';
import { databaseCheck, redisCheck, registerHealthRoutes } from './http/health.js';
import { registerOpenApi } from './http/openapi.js';
import { registerRequestLog } from './http/request-log.js';
import { registerWebApp } from './http/web-static.js';
import type { AppDeps } from './kernel/app-deps.js';
import { product } from './modules.js';
import { registerRealtime } from './realtime/index.js';

// French default messages for every zod schema (the UI's language).
z.config(z.locales.fr());

export type { AppDeps } from './kernel/app-deps.js';

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
    trustProxy: true,
  });
  app.decorate('deps', deps);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // Security headers; CORS closed unless CORS_ORIGINS lists origins (the web app is same-origin).
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        workerSrc: ["'self'", 'blob:'],
      },
    },
  });
  await app.register(cors, {
    origin: deps.config.corsOrigins.length ? deps.config.corsOrigins : false,
  });
  registerRequestLog(app);
  await registerOpenApi(app);

  registerHealthRoutes(app, {
    database: databaseCheck(deps.db),
    ...(deps.redis ? { redis: redisCheck(deps.redis) } : {}),
    ...deps.readiness,
  });

  await registerAuth(app, deps.config.JWT_SECRET);
  registerCommandPipeline(app, product, deps.eventStore);
  // Each context's routes, in the order of the module list (modules.ts).
  for (const module of product.modules) {
    if (module.http) await (await module.http())(app);
  }
  await registerRealtime(app);

  if (deps.webDir) await registerWebApp(app, deps.webDir);
  return app;
}
