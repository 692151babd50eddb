import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { metricsAccess } from './operator-access.js';

/**
 * The OpenAPI document, generated from the routes' zod schemas, at /api/docs. Open in
 * development and tests; in production only with /api/metrics' credentials (Bearer
 * METRICS_TOKEN or an admin's JWT), since it maps every route for an attacker.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Filière API',
        version: '1.0.0',
        description: 'API du back-office de la filière ananas.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  const production = app.deps.config.NODE_ENV === 'production';
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    ...(production ? { uiHooks: { onRequest: metricsAccess(app) } } : {}),
  });
}
