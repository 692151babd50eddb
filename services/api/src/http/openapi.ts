import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { accessOf } from './auth.js';
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
      // Same origin as the web app, which calls `/api/…` on the host that served it.
      servers: [{ url: '/', description: 'L’hôte qui sert l’application web' }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        schemas: { ApiError: apiErrorSchema },
      },
    },
    transform: documentRoute,
  });
  const production = app.deps.config.NODE_ENV === 'production';
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    ...(production ? { uiHooks: { onRequest: metricsAccess(app) } } : {}),
  });
}

/** The one answer shape of every error (error-handler.ts). */
const apiErrorSchema = {
  type: 'object' as const,
  required: ['statusCode', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer' as const },
    error: { type: 'string' as const },
    message: { type: 'string' as const, description: 'En français, lisible tel quel' },
    reason: {
      type: 'string' as const,
      description: 'Le code de la règle refusée, quand il y en a un',
    },
    fields: {
      type: 'object' as const,
      additionalProperties: { type: 'string' as const },
      description: 'Champ → message, pour une entrée refusée (400)',
    },
  },
  additionalProperties: true,
};

const errorAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
});

/**
 * A route as the document shows it: its zod schemas as JSON schemas, plus what its guard and
 * its URL already say, so no route restates them: `security` from the guard (none: public,
 * `[]`), an `operationId` from the method and the URL, and the error answers it can give
 * (400 for an input it validates, 401/403 behind a guard, 404 for a record its URL names).
 * A route's own `security` or `operationId` wins.
 */
const documentRoute: SwaggerTransform = (input) => {
  const { schema, url } = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  if (!schema || (schema as { hide?: boolean }).hide) return { schema, url };
  const declared = schema as FastifySchema & {
    security?: unknown;
    operationId?: string;
    response?: Record<string, unknown>;
  };
  const access = accessOf(input.route.preHandler);
  // Without a declared answer, the 200 without a body that the document shows by default.
  const response = { ...(declared.response ?? { 200: { description: 'Réussite', type: 'null' } }) };
  const add = (status: string, description: string) => {
    if (!(status in response)) response[status] = errorAnswer(description);
  };
  if (declared.body || declared.querystring || declared.params || declared.headers) {
    add('400', 'Entrée refusée (`fields` nomme chaque champ)');
  }
  const guarded = access !== 'public' || hasRequirement(declared.security);
  if (guarded) {
    add('401', 'Pas de jeton valide d’un utilisateur actif');
    add('403', 'Rôle ou périmètre insuffisant');
  }
  if (declared.params) add('404', 'Introuvable');
  return {
    url,
    schema: {
      ...declared,
      operationId: declared.operationId ?? operationIdOf(input.route.method, url),
      security: declared.security ?? (access === 'public' ? [] : [{ bearer: [] }]),
      ...(Object.keys(response).length ? { response } : {}),
    } as FastifySchema,
  };
};

/** Whether a `security` list names a scheme (`[{}]` alone, or `[]`, is anonymous access). */
const hasRequirement = (security: unknown): boolean =>
  Array.isArray(security) && security.some((r) => Object.keys(r as object).length > 0);

/**
 * `GET /api/users/:id/audit` → `getUsersByIdAudit`: the method, then each segment after
 * `/api` in camel case, a parameter as `By` + its name. Unique as long as routes are.
 */
export function operationIdOf(method: string | readonly string[], url: string): string {
  const verb = [method].flat()[0]!.toLowerCase();
  const words = url
    .replace(/^\/api(?=\/|$)/, '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) =>
      segment.startsWith(':') ? ['by', ...wordsOf(segment.slice(1))] : wordsOf(segment),
    );
  return verb + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** `statement.xlsx` → [statement, xlsx]; `walletId` → [walletId]; `make-debit` → [make, debit]. */
const wordsOf = (segment: string): string[] =>
  segment
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
