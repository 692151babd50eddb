import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { narrowDb, type Config, type Logger } from '@filiere/platform';
import { pgPushSource, type PushSource } from '@filiere/projections';
import { buildApp } from './app.js';
import type { Database } from './database.js';
import { projectionsReadiness } from './realtime/metrics.js';
import { startProjectionDispatch, type ProjectionDispatch } from './realtime/projections.js';

export const WEB_DIST_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../web/dist',
);

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  projections: ProjectionDispatch;
  close(): Promise<void>;
}

/**
 * Builds the API (and the web app when built), starts the projection dispatch
 * (in-process without REDIS_URL, BullMQ jobs with it) and listens on HOST:PORT.
 * `databaseUrl` (default DATABASE_URL) is used for LISTEN connections.
 */
export async function startServer<DB extends Database>(
  config: Config,
  db: Kysely<DB>,
  logger: Logger,
  options: { databaseUrl?: string } = {},
): Promise<RunningServer> {
  const databaseUrl = options.databaseUrl ?? config.DATABASE_URL;
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  redis?.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  // Without Redis, pushes travel by NOTIFY filiere_push (with Redis the hub subscribes itself).
  const pushes: PushSource | undefined =
    !redis && databaseUrl ? pgPushSource(databaseUrl) : undefined;
  const projections = startProjectionDispatch({ config, db, logger, databaseUrl });
  const app = await buildApp({
    config,
    db: narrowDb<Database>()(db),
    logger,
    webDir: WEB_DIST_DIR,
    ...(redis ? { redis } : {}),
    readiness: { projections: projectionsReadiness(db) },
    realtime: pushes ? { pushes } : {},
    ...(projections.thread ? { backgroundThread: projections.thread } : {}),
  });
  await app.listen({ host: config.HOST, port: config.PORT });
  return {
    app,
    url: config.PUBLIC_URL,
    projections,
    async close() {
      await app.close();
      await projections.close();
      await pushes?.close();
      redis?.disconnect();
    },
  };
}
