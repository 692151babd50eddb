import type { WebSocket } from 'ws';
import type { PushMessage } from '@filiere/projections';
import type { HubMessageType } from '../kernel/pushes.js';

/** Internal notice (never sent to sockets): these users' access changed, recheck their sockets. */
export const ACCESS_CHANGED = 'identity.access.changed';

/** Close code of a socket whose user lost access (same as a refused token: the web signs out). */
export const CLOSE_ACCESS_LOST = 4401;

/** For each user id that still exists: whether it is active and its current token version. */
export type AccessLookup = (
  userIds: string[],
) => Promise<Map<string, { isActive: boolean; tokenVersion: number }>>;

/**
 * Sockets by room (a room = one user id). A socket sits in exactly one room,
 * its authenticated user's, with the token version it was opened with.
 */
export class Rooms {
  private readonly rooms = new Map<string, Set<WebSocket>>();
  private readonly versions = new WeakMap<WebSocket, number>();

  constructor(private readonly lookup?: AccessLookup) {}

  join(room: string, socket: WebSocket, tokenVersion = 0): void {
    let set = this.rooms.get(room);
    if (!set) this.rooms.set(room, (set = new Set()));
    set.add(socket);
    this.versions.set(socket, tokenVersion);
  }

  leave(room: string, socket: WebSocket): void {
    const set = this.rooms.get(room);
    if (!set) return;
    set.delete(socket);
    if (!set.size) this.rooms.delete(room);
  }

  /** Sends `{type, data: null}` to every open socket (`resync`: pushes may have been lost). */
  broadcast(type: HubMessageType): number {
    const text = JSON.stringify({ type, data: null });
    let sent = 0;
    for (const set of this.rooms.values()) {
      for (const socket of set) {
        if (socket.readyState === socket.OPEN) {
          socket.send(text);
          sent++;
        }
      }
    }
    return sent;
  }

  /** Sends `{type, data}` to every open socket of each user named by the push. */
  forward(msg: PushMessage): number {
    if (msg.type === ACCESS_CHANGED) return 0;
    const text = JSON.stringify({ type: msg.type, data: msg.data ?? null });
    let sent = 0;
    for (const userId of new Set(msg.userIds)) {
      for (const socket of this.rooms.get(userId) ?? []) {
        if (socket.readyState === socket.OPEN) {
          socket.send(text);
          sent++;
        }
      }
    }
    return sent;
  }

  /**
   * Closes (4401) the sockets of `userIds` (default: every connected user) whose user is
   * gone, deactivated, or whose tokens were revoked since the socket opened (password change
   * or reset, role change, deactivation, deletion). Answers how many were closed.
   */
  async recheck(userIds?: string[]): Promise<number> {
    if (!this.lookup) return 0;
    const ids = [...new Set(userIds ?? this.rooms.keys())].filter((id) => this.rooms.has(id));
    if (!ids.length) return 0;
    const states = await this.lookup(ids);
    let closed = 0;
    for (const id of ids) {
      const state = states.get(id);
      for (const socket of [...(this.rooms.get(id) ?? [])]) {
        if (state?.isActive && state.tokenVersion === this.versions.get(socket)) continue;
        if (socket.readyState === socket.OPEN) {
          socket.send(
            JSON.stringify({
              type: 'error' satisfies HubMessageType,
              data: { statusCode: 401, message: 'Session expirée : veuillez vous reconnecter' },
            }),
          );
        }
        socket.close(CLOSE_ACCESS_LOST, 'Access revoked');
        this.leave(id, socket);
        closed++;
      }
    }
    return closed;
  }

  size(): number {
    let n = 0;
    for (const set of this.rooms.values()) n += set.size;
    return n;
  }
}
