import type { WebSocket } from 'ws';
import type { PushMessage } from '@filiere/projections';

/**
 * Sockets by room (a room = one user id). A socket sits in exactly one room,
 * its authenticated user's.
 */
export class Rooms {
  private readonly rooms = new Map<string, Set<WebSocket>>();

  join(room: string, socket: WebSocket): void {
    let set = this.rooms.get(room);
    if (!set) this.rooms.set(room, (set = new Set()));
    set.add(socket);
  }

  leave(room: string, socket: WebSocket): void {
    const set = this.rooms.get(room);
    if (!set) return;
    set.delete(socket);
    if (!set.size) this.rooms.delete(room);
  }

  /** Sends `{type, data}` to every open socket of each user named by the push. */
  forward(msg: PushMessage): number {
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

  size(): number {
    let n = 0;
    for (const set of this.rooms.values()) n += set.size;
    return n;
  }
}
