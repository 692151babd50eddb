import { sql, type Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import type { PushMessage } from './projector.js';
import { listenChannel } from './pg-listen.js';
import type { PushPublisher } from './runner.js';

export const PUSH_REDIS_CHANNEL = 'filiere:push';
/**
 * What a push source emits, to no user, after its connection came back: the pushes
 * published meanwhile are lost, so the hub tells every socket to refetch (`resync`).
 */
export const PUSH_RESYNC = 'resync';
export const PUSH_PG_CHANNEL = 'filiere_push';
/** NOTIFY payloads must stay under 8000 bytes. */
const MAX_PAYLOAD = 7000;

/** Splits a message so each serialized piece fits a NOTIFY (data dropped if it alone is too big). */
export function fitPayload(msg: PushMessage): string[] {
  const whole = JSON.stringify(msg);
  if (Buffer.byteLength(whole) <= MAX_PAYLOAD) return [whole];
  const base: PushMessage = { type: msg.type, userIds: [] };
  if (msg.data !== undefined && Buffer.byteLength(JSON.stringify(msg.data)) < MAX_PAYLOAD / 2) {
    base.data = msg.data;
  }
  const out: string[] = [];
  let ids: string[] = [];
  for (const id of msg.userIds) {
    const next = JSON.stringify({ ...base, userIds: [...ids, id] });
    if (Buffer.byteLength(next) > MAX_PAYLOAD && ids.length) {
      out.push(JSON.stringify({ ...base, userIds: ids }));
      ids = [];
    }
    ids.push(id);
  }
  if (ids.length) out.push(JSON.stringify({ ...base, userIds: ids }));
  return out;
}

export function redisPushPublisher(redis: Redis): PushPublisher {
  return async (messages) => {
    for (const msg of messages) await redis.publish(PUSH_REDIS_CHANNEL, JSON.stringify(msg));
  };
}

export function pgPushPublisher<DB>(db: Kysely<DB>): PushPublisher {
  return async (messages) => {
    const payloads = messages.flatMap(fitPayload);
    for (const payload of payloads) {
      await sql`select pg_notify(${PUSH_PG_CHANNEL}, ${payload})`.execute(db);
    }
  };
}

/** Where the websocket hub receives pushes from. */
export interface PushSource {
  subscribe(listener: (msg: PushMessage) => void): () => void;
  close(): Promise<void>;
}

function parse(raw: string): PushMessage | undefined {
  try {
    const msg = JSON.parse(raw) as PushMessage;
    return typeof msg.type === 'string' && Array.isArray(msg.userIds) ? msg : undefined;
  } catch {
    return undefined;
  }
}

function fanOut() {
  const listeners = new Set<(msg: PushMessage) => void>();
  return {
    listeners,
    emit(raw: string) {
      const msg = parse(raw);
      if (msg) for (const l of listeners) l(msg);
    },
    resync() {
      for (const l of listeners) l({ type: PUSH_RESYNC, userIds: [] });
    },
    subscribe(listener: (msg: PushMessage) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Subscribes to `filiere:push` on a dedicated Redis connection (a duplicate of `redis`). */
export function redisPushSource(redis: Redis): PushSource {
  const sub = redis.duplicate();
  const fan = fanOut();
  sub.on('error', () => undefined);
  // ioredis resubscribes by itself after a reconnection; what was published meanwhile is lost.
  let connected = false;
  sub.on('ready', () => {
    if (connected) fan.resync();
    connected = true;
  });
  sub.on('message', (channel: string, raw: string) => {
    if (channel === PUSH_REDIS_CHANNEL) fan.emit(raw);
  });
  void sub.subscribe(PUSH_REDIS_CHANNEL).catch(() => undefined);
  return {
    subscribe: (l) => {
      fan.subscribe(l);
      return () => void fan.listeners.delete(l);
    },
    async close() {
      sub.disconnect();
    },
  };
}

/** LISTENs on `filiere_push` (a `resync` to the listeners after each reconnection). */
export function pgPushSource(databaseUrl: string): PushSource {
  const fan = fanOut();
  const listener = listenChannel(databaseUrl, PUSH_PG_CHANNEL, (raw) => fan.emit(raw), {
    onReconnect: () => fan.resync(),
  });
  return {
    subscribe: (l) => {
      fan.subscribe(l);
      return () => void fan.listeners.delete(l);
    },
    close: () => listener.close(),
  };
}
