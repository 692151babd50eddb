import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { storableInput } from '@filiere/platform';

/**
 * The validator of every route's body, query string, params and headers: the zod schema
 * of the route, after a check that no string of the input (object keys included) holds text
 * PostgreSQL cannot store — NUL or a lone surrogate (see `@filiere/platform` text.ts). The
 * check is here rather than only in the schemas so that no route, present or future, can
 * forget it; a refused field gets a 400 with its French field message, like any zod issue.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) =>
  zodValidatorCompiler({ ...route, schema: storableInput.pipe(route.schema) });
