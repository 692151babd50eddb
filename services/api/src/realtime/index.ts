import type { FastifyInstance } from 'fastify';

/** Websocket hub at /api/ws and the pushes it forwards (issue 3 fills this in). */
export async function registerRealtime(_app: FastifyInstance): Promise<void> {}
