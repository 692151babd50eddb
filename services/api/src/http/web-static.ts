import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built web app from `dir`; any GET outside /api that is not a file
 * gets index.html so the client router can take it.
 */
export async function registerWebApp(app: FastifyInstance, dir: string): Promise<void> {
  const index = path.join(dir, 'index.html');
  if (!existsSync(index)) {
    app.log.warn({ dir }, 'web app not built: only the API is served');
    return;
  }
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
  });
  // The web app's pages, not an API operation: kept out of the OpenAPI document.
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') {
      return reply.status(404).send({
        statusCode: 404,
        error: 'Not Found',
        message: `Route ${request.method} ${request.url.split('?')[0]} introuvable`,
      });
    }
    return reply.type('text/html').sendFile('index.html');
  });
}
