import { Kysely, PostgresDialect } from 'kysely';
import { createLogger, parseConfig } from '@filiere/platform';
import { buildApp } from './app.js';
import type { Database } from './database.js';

/** The OpenAPI document as the API serves it at /api/docs/json. */
export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

/**
 * The API's OpenAPI document, from the app built as in development but never listening and
 * never reaching a database (its pool refuses to connect; building the routes reads nothing).
 * `webDir` serves a built web app beside the API, as production does.
 */
export async function openApiDocument(options: { webDir?: string } = {}): Promise<OpenApiDocument> {
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: () => Promise.reject(new Error('the OpenAPI document reads no database')),
    }),
  });
  const app = await buildApp({
    config: parseConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent' }),
    db,
    logger: createLogger('silent', false),
    ...(options.webDir ? { webDir: options.webDir } : {}),
  });
  try {
    await app.ready();
    return app.swagger() as unknown as OpenApiDocument;
  } finally {
    await app.close();
    await db.destroy();
  }
}
