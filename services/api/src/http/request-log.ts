import type { FastifyInstance } from 'fastify';

/** One log line per request: request id, user id when known, status and duration. */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const user = (request as { user?: { sub?: string } }).user;
    request.log.info(
      {
        reqId: request.id,
        userId: user?.sub,
        method: request.method,
        url: request.url.split('?')[0],
        statusCode: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request',
    );
  });
}
