import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useTestDatabase } from '@filiere/platform/testing';
import { catchUp, pgPushPublisher, pgPushSource, type PushSource } from '@filiere/projections';
import {
  appendTestEvents,
  countingProjector,
  createCountingTables,
  ensureEventsTable,
} from '@filiere/projections/testing';
import { seedUser } from '../identity/test-support.js';
import { buildTestApp } from '../test-app.js';
import { projectionsReadiness } from './metrics.js';
import type { Database } from '../database.js';

const t = useTestDatabase<Database>();
let app: FastifyInstance;
let base: string;
let pushes: PushSource;
/** Real users (the hub loads the token's user): alice, bob, carol. */
const users: Record<string, string> = {};

beforeAll(async () => {
  await ensureEventsTable(t.db);
  pushes = pgPushSource(t.url);
  app = await buildTestApp(t.db, {
    realtime: { pushes, pingIntervalMs: 100, authTimeoutMs: 500 },
    readiness: { projections: projectionsReadiness(t.db) },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address() as { port: number };
  base = `ws://127.0.0.1:${address.port}/api/ws`;
  await listening();
  for (const name of ['alice', 'bob', 'carol']) {
    users[name] = (await seedUser(t.db, 'ROLE_CLUSTER_MANAGER')).id;
  }
});
afterAll(async () => {
  await app?.close();
  await pushes?.close();
});

/**
 * Until the push source's connection to this database has run its LISTEN: a push published
 * before that is lost (a fixed pause was too short for a loaded machine's connect).
 */
async function listening(): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where application_name = 'filiere-listen-filiere_push' and datname = current_database()
        and state = 'idle' and query ilike 'LISTEN %'`.execute(t.db);
    if (rows[0]!.n > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the push source is not listening on PostgreSQL');
}

const token = (name: string) => app.jwt.sign({ sub: users[name]!, role: 'ROLE_CLUSTER_MANAGER' });

/** A client that records every message it receives. */
async function connect(url: string, first?: unknown) {
  const socket = new WebSocket(url);
  const messages: { type: string; data: any }[] = [];
  const closed = new Promise<number>((r) => socket.on('close', (code) => r(code)));
  socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  if (first !== undefined) socket.send(JSON.stringify(first));
  const next = async (type: string) => {
    for (let i = 0; i < 200; i++) {
      const found = messages.find((m) => m.type === type);
      if (found) {
        messages.splice(messages.indexOf(found), 1);
        return found;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no ${type} message`);
  };
  return { socket, messages, closed, next };
}

describe('websocket hub /api/ws', () => {
  it('authenticates with ?token= or a first auth message and forwards only its user’s pushes', async () => {
    const alice = await connect(`${base}?token=${token('alice')}`);
    expect((await alice.next('ready')).data).toEqual({ room: users.alice });
    const bob = await connect(base, { type: 'auth', token: token('bob') });
    expect((await bob.next('ready')).data).toEqual({ room: users.bob });

    // A projector commits and publishes; the hub receives it through LISTEN filiere_push.
    await createCountingTables(t.db, 'ws1');
    await appendTestEvents(t.db, [{ streamId: users.alice!, type: 'Counted' }]);
    await catchUp(t.db, countingProjector('ws1', { pushTo: (s) => s }), {
      publish: pgPushPublisher(t.db),
    });
    expect(await alice.next('counted')).toEqual({
      type: 'counted',
      data: { streamId: users.alice },
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(bob.messages.filter((m) => m.type === 'counted')).toEqual([]);
    alice.socket.close();
    bob.socket.close();
  });

  it('tells every socket to refetch (resync) once its listener on PostgreSQL is back', async () => {
    const alice = await connect(`${base}?token=${token('alice')}`);
    await alice.next('ready');
    const bob = await connect(`${base}?token=${token('bob')}`);
    await bob.next('ready');
    // The hub's LISTEN connection is cut (a PostgreSQL restart, a network drop): a push
    // published before it listens again is lost, so the sockets must be told to refetch.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'filiere-listen-filiere_push' and datname = current_database()`.execute(
      t.db,
    );
    expect(await alice.next('resync')).toEqual({ type: 'resync', data: null });
    expect(await bob.next('resync')).toEqual({ type: 'resync', data: null });
    alice.socket.close();
    bob.socket.close();
  });

  it('refuses to join another user’s room', async () => {
    const alice = await connect(`${base}?token=${token('alice')}`);
    await alice.next('ready');
    alice.socket.send(JSON.stringify({ type: 'join', room: users.bob }));
    expect((await alice.next('error')).data).toEqual({
      statusCode: 403,
      message: 'Accès refusé à ce salon',
    });
    alice.socket.send(JSON.stringify({ type: 'join', room: users.alice }));
    expect((await alice.next('joined')).data).toEqual({ room: users.alice });
    alice.socket.close();
  });

  it('closes sockets with a bad token or none (4401)', async () => {
    const forged = await connect(`${base}?token=not-a-jwt`);
    expect(await forged.closed).toBe(4401);
    const silent = await connect(base);
    expect(await silent.closed).toBe(4401);
    const wrong = await connect(base, { type: 'auth', token: 'x.y.z' });
    expect(await wrong.closed).toBe(4401);
  });

  it('drops sockets that stop answering pings', async () => {
    const before = app.rooms.size();
    const dead = await connect(`${base}?token=${token('carol')}`);
    await dead.next('ready');
    expect(app.rooms.size()).toBe(before + 1);
    // Stop reading: pings are no longer answered with pongs.
    (dead.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    for (let i = 0; i < 100 && app.rooms.size() > before; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(app.rooms.size()).toBe(before);
    dead.socket.terminate();
  });
});

describe('lag and metrics', () => {
  it('reports each projector’s checkpoint, head and lag in /api/ready and /api/metrics', async () => {
    await createCountingTables(t.db, 'm1');
    await catchUp(t.db, countingProjector('m1'));
    await appendTestEvents(t.db, [
      { streamId: 'm', type: 'Counted' },
      { streamId: 'm', type: 'Counted' },
    ]);
    const ready = await app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    const details = ready.json().checks.projections.details.m1;
    expect(details.lag).toBe(2);
    expect(details.head - details.checkpoint).toBe(2);
    const metrics = await app.inject({
      url: '/api/metrics',
      headers: {
        authorization: `Bearer ${app.jwt.sign({ sub: (await seedUser(t.db, 'ROLE_ADMIN')).id, role: 'ROLE_ADMIN' })}`,
      },
    });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers['content-type']).toMatch(/text\/plain/);
    expect(metrics.body).toContain('filiere_projection_lag_events{projector="m1"} 2');
    expect(metrics.body).toContain(`filiere_event_store_head_position ${details.head}`);
  });
});
