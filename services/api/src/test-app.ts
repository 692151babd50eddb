import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { createLogger, narrowDb, parseConfig, type Config } from '@filiere/platform';
import { buildApp, type AppDeps } from './app.js';
import type { Database } from './database.js';

/** Builds the app for `app.inject` tests on a test database. */
export async function buildTestApp<DB extends Database>(
  db: Kysely<DB>,
  overrides: Partial<AppDeps> & { env?: Record<string, string> } = {},
): Promise<FastifyInstance> {
  const config: Config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...overrides.env });
  const { env: _env, ...deps } = overrides;
  return buildApp({
    config,
    db: narrowDb<Database>()(db),
    logger: createLogger('silent', false),
    ...deps,
  });
}
