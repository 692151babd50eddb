import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import {
  pgPushPublisher,
  PUSH_RESYNC,
  pgPushSource,
  redisPushPublisher,
  redisPushSource,
  type PushSource,
} from '@filiere/projections';
import { IdentityRepository } from '../identity/repository.js';
import { ACCESS_CHANGED, Rooms } from './hub.js';
import { registerMetrics } from './metrics.js';
import { registerSocketRoute } from './socket.js';

export { projectionsReadiness } from './metrics.js';
export { ACCESS_CHANGED, Rooms } from './hub.js';

import type { RealtimeOptions } from '../kernel/app-deps.js';

export type { RealtimeOptions };

declare module 'fastify' {
  interface FastifyInstance {
    rooms: Rooms;
  }
}

/**
 * Websocket hub at /api/ws: pushes published by projectors after their commits
 * reach the sockets of the users they name. A socket whose user loses access is closed:
 * at once in this process, through the push channel (Redis pub/sub, else NOTIFY) in the
 * others, and by a periodic recheck. Also serves /api/metrics.
 */
export async function registerRealtime(app: FastifyInstance): Promise<void> {
  const options: RealtimeOptions = app.deps.realtime ?? {};
  const repo = new IdentityRepository(app.deps.db);
  const rooms = new Rooms((ids) => repo.accessStates(ids));
  app.decorate('rooms', rooms);
  const recheck = (ids?: string[]) =>
    rooms.recheck(ids).catch((error: unknown) => {
      app.log.warn({ err: error }, 'websocket access recheck failed');
      return 0;
    });
  const publish = app.deps.redis
    ? redisPushPublisher(app.deps.redis)
    : pgPushPublisher(app.deps.db);
  app.decorate('accessChanged', async (userIds: string[]) => {
    await recheck(userIds);
    try {
      await publish([{ type: ACCESS_CHANGED, userIds }]);
    } catch (error) {
      // The other processes' periodic recheck closes their sockets anyway.
      app.log.warn({ err: error }, 'access change not published');
    }
  });
  const every = options.accessRecheckMs ?? 60_000;
  const timer = setInterval(() => void recheck(), every);
  timer.unref();

  let owned: PushSource | undefined;
  let source = options.pushes;
  if (!source && app.deps.redis) source = owned = redisPushSource(app.deps.redis);
  else if (!source && app.deps.config.DATABASE_URL) {
    source = owned = pgPushSource(app.deps.config.DATABASE_URL);
  }
  const unsubscribe = source?.subscribe((msg) => {
    if (msg.type === ACCESS_CHANGED) void recheck(msg.userIds);
    else if (msg.type === PUSH_RESYNC) rooms.broadcast('resync');
    else rooms.forward(msg);
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
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
