import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * How long a browser keeps a file of the build. Vite names everything under /assets/ after its
 * content (a new build, new names), so those are kept a year and never asked again; everything
 * else (index.html, the service worker, the manifest, the icons) keeps its name across builds
 * and is asked again each time (`no-cache`: revalidated by its ETag, a 304 when unchanged), so a
 * new version is seen at the next visit.
 */
export const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
export const REVALIDATED_CACHE = 'no-cache';

const isHashedAsset = (file: string) => file.split(path.sep).includes('assets');

/**
 * Serves the built web app from `dir`; any GET outside /api that is not a file gets index.html
 * so the client router can take it. The build holds a brotli (.br) and a gzip (.gz) copy of
 * each compressible file (vite.config.ts): the copy the request's Accept-Encoding prefers is
 * sent as it is (`preCompressed`), the file itself when none is accepted.
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
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res, file) => {
      res.setHeader('cache-control', isHashedAsset(file) ? HASHED_ASSET_CACHE : REVALIDATED_CACHE);
      // The answer depends on Accept-Encoding: a shared cache keeps one copy per encoding.
      res.setHeader('vary', 'Accept-Encoding');
    },
  });
  // The web app's pages, not an API operation: kept out of the OpenAPI document.
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    // A file of an older build (a page opened before a deploy asks for a chunk since replaced)
    // is a 404, not index.html read as JavaScript.
    if (request.url.startsWith('/assets/')) return reply.callNotFound();
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
