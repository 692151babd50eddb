import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { createLogger, narrowDb, parseConfig, type Config, type Logger } from '@filiere/platform';
import { buildApp, type AppDeps } from './app.js';
import type { Database } from './database.js';
import { runDemoSteps, type DemoStep } from './kernel/index.js';

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

/**
 * Runs demo steps on a test database as the demo loader does (each step once; an app on the
 * same pool for the steps that go through the real commands); returns the steps that ran.
 */
export const loadDemoSteps = (
  ctx: { db: Kysely<Database>; logger: Logger },
  steps: readonly DemoStep[],
): Promise<string[]> =>
  runDemoSteps({ ...ctx, openApp: (config, clock) => buildApp({ config, ...ctx, clock }) }, steps);
