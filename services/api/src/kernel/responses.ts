import { z } from 'zod';

/**
 * A response that is not JSON (a page, a file, a text), as a route's schema declares it:
 * the OpenAPI document names its media types. Fastify sends such a payload (a string, a
 * buffer, a stream) as it is, without serializing it.
 */
export function nonJsonResponse(description: string, ...mediaTypes: string[]) {
  // Any payload to the type checker (a buffer, a stream); a binary string to the document.
  const schema = z.any().meta({ type: 'string', format: 'binary' });
  return {
    description,
    content: Object.fromEntries(mediaTypes.map((type) => [type, { schema }])),
  };
}
