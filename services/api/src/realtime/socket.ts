import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { HubMessageType } from '../kernel/pushes.js';
import type { Rooms } from './hub.js';

interface SocketOptions {
  pingIntervalMs: number;
  authTimeoutMs: number;
}

/** Close codes: 4401 = no valid access token. */
export const CLOSE_UNAUTHENTICATED = 4401;

function send(socket: WebSocket, type: HubMessageType, data?: unknown): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ type, data: data ?? null }));
}

function parse(raw: unknown): { type?: unknown; token?: unknown; room?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(String(raw));
    return value && typeof value === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `GET /api/ws`. The access token comes as `?token=` or as the first message
 * `{"type":"auth","token":"…"}`, and is checked as the HTTP guard checks it (the user
 * exists, is active, and the token is of its current version); the socket then sits in
 * its user's room (`{"type":"ready","data":{"room":"<user id>"}}`) until the user loses
 * access: the hub's recheck then closes it (4401). `{"type":"join","room":…}`
 * for any other room is refused. Server pings every `pingIntervalMs`; a socket
 * that has not answered the previous ping is terminated.
 */
export function registerSocketRoute(app: FastifyInstance, rooms: Rooms, opts: SocketOptions): void {
  app.get(
    '/api/ws',
    {
      websocket: true,
      schema: {
        tags: ['realtime'],
        summary: 'Notifications en temps réel (websocket, jeton d’accès requis)',
      },
    },
    (socket, request) => {
      let room: string | undefined;
      let alive = true;
      let closed = false;
      /** The authentication under way (the user is loaded from the database). */
      let pending: Promise<boolean> | undefined;

      const refuse = () => {
        send(socket, 'error', { statusCode: 401, message: 'Non authentifié' });
        socket.close(CLOSE_UNAUTHENTICATED, 'Unauthorized');
        return false;
      };
      const authenticate = (token: unknown): Promise<boolean> =>
        (pending ??= (async () => {
          if (typeof token !== 'string') return refuse();
          try {
            const user = await app.userOfToken(token);
            if (closed) return false;
            room = user.id;
            rooms.join(room, socket, user.token_version);
            send(socket, 'ready', { room });
            return true;
          } catch {
            return refuse();
          }
        })());

      const authTimer = setTimeout(() => {
        if (!room && !pending) void authenticate(undefined);
      }, opts.authTimeoutMs);
      const heartbeat = setInterval(() => {
        if (!alive) {
          socket.terminate();
          return;
        }
        alive = false;
        socket.ping();
      }, opts.pingIntervalMs);
      socket.on('pong', () => {
        alive = true;
      });
      socket.on('close', () => {
        closed = true;
        clearTimeout(authTimer);
        clearInterval(heartbeat);
        if (room) rooms.leave(room, socket);
      });

      const query = request.query as { token?: unknown };
      if (query.token !== undefined) {
        clearTimeout(authTimer);
        void authenticate(query.token);
      }

      socket.on('message', async (raw) => {
        const msg = parse(raw);
        if (!pending) {
          clearTimeout(authTimer);
          void authenticate(msg?.type === 'auth' ? msg.token : undefined);
          return;
        }
        if (!(await pending) || !room) return;
        if (msg?.type === 'join') {
          if (msg.room === room) send(socket, 'joined', { room });
          else send(socket, 'error', { statusCode: 403, message: 'Accès refusé à ce salon' });
        } else if (msg?.type === 'ping') {
          send(socket, 'pong');
        }
      });
    },
  );
}
