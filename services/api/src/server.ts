import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Config, Logger } from '@filiere/platform';
import { buildApp } from './app.js';

export const WEB_DIST_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../web/dist',
);

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** Builds the API (and the web app when built) and listens on HOST:PORT. */
export async function startServer(
  config: Config,
  db: Kysely<any>,
  logger: Logger,
): Promise<RunningServer> {
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  redis?.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  const app = await buildApp({
    config,
    db,
    logger,
    webDir: WEB_DIST_DIR,
    ...(redis ? { redis } : {}),
  });
  await app.listen({ host: config.HOST, port: config.PORT });
  return {
    app,
    url: config.PUBLIC_URL,
    async close() {
      await app.close();
      redis?.disconnect();
    },
  };
}
