import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isAppError } from '@filiere/platform';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * One answer shape for every error: `{ statusCode, error, message, ...data }`.
 * Validation failures are 400 with `fields` (path → French message); typed
 * domain errors keep their status; anything unexpected is a logged 500 whose
 * message reveals nothing.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
        fields[path || String(error.validationContext ?? 'body')] ??=
          issue.message ?? 'Entré non valide';
      }
      return reply.status(400).send({
        statusCode: 400,
        error: STATUS_TEXT[400],
        message: firstMessage(fields) ?? 'Données invalides',
        fields,
      });
    }
    if (isAppError(error)) {
      return reply.status(error.statusCode).send({
        statusCode: error.statusCode,
        error: STATUS_TEXT[error.statusCode] ?? 'Error',
        message: error.message,
        ...error.data,
      });
    }
    if (isPostgresDataException(error)) {
      // A value PostgreSQL cannot take (NUL byte, invalid text for a type…): bad input, not a bug.
      return reply.status(400).send({
        statusCode: 400,
        error: STATUS_TEXT[400],
        message: 'Valeur non prise en charge',
      });
    }
    const status =
      typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({
        statusCode: 500,
        error: STATUS_TEXT[500],
        message: 'Une erreur inattendue est survenue',
      });
    }
    return reply.status(status).send({
      statusCode: status,
      error: STATUS_TEXT[status] ?? 'Error',
      message: clientMessage(error, status),
    });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({
      statusCode: 404,
      error: STATUS_TEXT[404],
      message: `Route ${request.method} ${request.url.split('?')[0]} introuvable`,
    });
  });
}

/** SQLSTATE class 22 (data exception) raised by PostgreSQL for a value of the request. */
function isPostgresDataException(error: unknown): boolean {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code) && typeof severity === 'string';
}

/** The first field's French message, as a person reads it: `fields` names the path. */
function firstMessage(fields: Record<string, string>): string | undefined {
  return Object.values(fields)[0];
}

function clientMessage(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Type de contenu non pris en charge';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Le corps de la requête est vide';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Le corps de la requête est trop volumineux';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'Le corps de la requête n’est pas un JSON valide';
    default:
      if (error instanceof SyntaxError) return 'Le corps de la requête n’est pas un JSON valide';
      return error.message || STATUS_TEXT[status] || 'Requête invalide';
  }
}
