import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { pgPushSource, redisPushSource, type PushSource } from '@filiere/projections';
import { Rooms } from './hub.js';
import { registerMetrics } from './metrics.js';
import { registerSocketRoute } from './socket.js';

export { projectionsReadiness } from './metrics.js';
export { Rooms } from './hub.js';

import type { RealtimeOptions } from '../kernel/app-deps.js';

export type { RealtimeOptions };

declare module 'fastify' {
  interface FastifyInstance {
    rooms: Rooms;
  }
}

/**
 * Websocket hub at /api/ws: pushes published by projectors after their commits
 * reach the sockets of the users they name. Also serves /api/metrics.
 */
export async function registerRealtime(app: FastifyInstance): Promise<void> {
  const options: RealtimeOptions = app.deps.realtime ?? {};
  const rooms = new Rooms();
  app.decorate('rooms', rooms);

  let owned: PushSource | undefined;
  let source = options.pushes;
  if (!source && app.deps.redis) source = owned = redisPushSource(app.deps.redis);
  else if (!source && app.deps.config.DATABASE_URL) {
    source = owned = pgPushSource(app.deps.config.DATABASE_URL);
  }
  const unsubscribe = source?.subscribe((msg) => rooms.forward(msg));
  app.addHook('onClose', async () => {
    unsubscribe?.();
    await owned?.close();
  });

  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  registerSocketRoute(app, rooms, {
    pingIntervalMs: options.pingIntervalMs ?? 30_000,
    authTimeoutMs: options.authTimeoutMs ?? 10_000,
  });
  registerMetrics(app);
}
