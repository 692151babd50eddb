import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useTestDatabase } from '@filiere/platform/testing';
import { pgPushSource, type PushSource } from '@filiere/projections';
import type { RoleCode } from '../http/auth.js';
import { seedUser, TEST_PASSWORD } from '../identity/test-support.js';
import { buildTestApp } from '../test-app.js';
import type { Database } from '../database.js';

/**
 * The websocket side of token revocation: the hub checks the token as the HTTP guard does, and closes (4401) the sockets of a user who is deactivated, deleted, changes role or
 * has its tokens revoked: at once in the process that made the change, through the push
 * channel in the others, and by a periodic recheck for changes made outside the API.
 */
const t = useTestDatabase<Database>();
/**
 * Three API processes on one database: `a` takes the HTTP calls, `b` holds sockets and hears
 * a's notices through LISTEN (no periodic recheck within a test), `c` only rechecks (300 ms).
 */
let a: FastifyInstance;
let b: FastifyInstance;
let c: FastifyInstance;
let pushesB: PushSource;
let ip = 0;

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/api/ws`;
}
let wsA: string;
let wsB: string;
let wsC: string;

beforeAll(async () => {
  a = await buildTestApp(t.db, { realtime: { accessRecheckMs: 3_600_000 } });
  pushesB = pgPushSource(t.url);
  b = await buildTestApp(t.db, { realtime: { pushes: pushesB, accessRecheckMs: 3_600_000 } });
  c = await buildTestApp(t.db, { realtime: { accessRecheckMs: 300 } });
  wsA = await listen(a);
  wsB = await listen(b);
  wsC = await listen(c);
  await new Promise((r) => setTimeout(r, 300)); // LISTEN connection up
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await c?.close();
  await pushesB?.close();
});

const bearer = (id: string, role: RoleCode) => a.jwt.sign({ sub: id, role });
const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  token: string,
  payload?: Record<string, unknown>,
) =>
  a.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
    remoteAddress: `10.13.0.${(ip++ % 250) + 1}`,
  });

async function connect(url: string) {
  const socket = new WebSocket(url);
  const messages: { type: string; data: any }[] = [];
  let code: number | undefined;
  const closed = new Promise<number>((r) =>
    socket.on('close', (c) => {
      code = c;
      r(c);
    }),
  );
  socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const ready = async () => {
    for (let i = 0; i < 200 && code === undefined; i++) {
      if (messages.some((m) => m.type === 'ready')) return true;
      await new Promise((r) => setTimeout(r, 25));
    }
    return messages.some((m) => m.type === 'ready');
  };
  return { socket, messages, closed, ready, code: () => code };
}

/** The close code, or 'open' if the socket is still open after `ms`. */
const closedWithin = (s: { closed: Promise<number> }, ms: number) =>
  Promise.race([s.closed, new Promise<'open'>((r) => setTimeout(() => r('open'), ms))]);

describe('websocket access follows the user’s current state', () => {
  it('refuses the socket of a deactivated user (4401)', async () => {
    const user = await seedUser(t.db, 'ROLE_INDUSTRIAL', { active: false });
    const socket = await connect(`${wsA}?token=${bearer(user.id, 'ROLE_INDUSTRIAL')}`);
    expect(await closedWithin(socket, 5_000)).toBe(4401);
    expect(socket.messages).toEqual([
      { type: 'error', data: { statusCode: 401, message: 'Non authentifié' } },
    ]);
  });

  it('refuses the socket of a deleted user, and a token of a revoked version', async () => {
    const gone = await seedUser(t.db, 'ROLE_INDUSTRIAL');
    await t.db
      .updateTable('users')
      .set({ deleted_at: new Date() })
      .where('id', '=', gone.id)
      .execute();
    const goneSocket = await connect(`${wsA}?token=${bearer(gone.id, 'ROLE_INDUSTRIAL')}`);
    expect(await closedWithin(goneSocket, 5_000)).toBe(4401);
    const revoked = await seedUser(t.db, 'ROLE_INDUSTRIAL');
    await t.db
      .updateTable('users')
      .set({ token_version: 1 })
      .where('id', '=', revoked.id)
      .execute();
    const revokedSocket = await connect(`${wsA}?token=${bearer(revoked.id, 'ROLE_INDUSTRIAL')}`);
    expect(await closedWithin(revokedSocket, 5_000)).toBe(4401);
  });

  it('closes an open socket when an admin deactivates its user — in this process and in another', async () => {
    const admin = await seedUser(t.db, 'ROLE_SUPER_ADMIN');
    const user = await seedUser(t.db, 'ROLE_INDUSTRIAL');
    const token = bearer(user.id, 'ROLE_INDUSTRIAL');
    const here = await connect(`${wsA}?token=${token}`);
    const there = await connect(`${wsB}?token=${token}`);
    expect(await here.ready()).toBe(true);
    expect(await there.ready()).toBe(true);
    const res = await call(
      'GET',
      `/api/users/activate-account/${user.id}`,
      bearer(admin.id, 'ROLE_SUPER_ADMIN'),
    );
    expect(res.json().isActive).toBe(false);
    expect(await closedWithin(here, 5_000)).toBe(4401);
    expect(await closedWithin(there, 5_000)).toBe(4401);
    expect(here.messages.at(-1)).toEqual({
      type: 'error',
      data: { statusCode: 401, message: 'Session expirée : veuillez vous reconnecter' },
    });
  });

  it('closes the sockets of a user whose tokens are revoked (password change, role change, deletion)', async () => {
    const admin = await seedUser(t.db, 'ROLE_SUPER_ADMIN');
    const adminToken = bearer(admin.id, 'ROLE_SUPER_ADMIN');
    const changer = await seedUser(t.db, 'ROLE_INDUSTRIAL');
    const demoted = await seedUser(t.db, 'ROLE_ADMIN');
    const deleted = await seedUser(t.db, 'ROLE_INDUSTRIAL');
    const sockets = {
      changer: await connect(`${wsA}?token=${bearer(changer.id, 'ROLE_INDUSTRIAL')}`),
      demoted: await connect(`${wsA}?token=${bearer(demoted.id, 'ROLE_ADMIN')}`),
      deleted: await connect(`${wsA}?token=${bearer(deleted.id, 'ROLE_INDUSTRIAL')}`),
    };
    for (const s of Object.values(sockets)) expect(await s.ready()).toBe(true);
    const changed = await call(
      'POST',
      '/api/users/me/password',
      bearer(changer.id, 'ROLE_INDUSTRIAL'),
      {
        oldPassword: TEST_PASSWORD,
        newPassword: 'Nouveau#2026',
        confirmPassword: 'Nouveau#2026',
      },
    );
    expect(changed.statusCode).toBe(200);
    expect(
      (await call('PATCH', `/api/users/${demoted.id}`, adminToken, { roleId: 3 })).statusCode,
    ).toBe(200);
    expect((await call('DELETE', `/api/users/${deleted.id}`, adminToken)).statusCode).toBe(204);
    for (const s of Object.values(sockets)) expect(await closedWithin(s, 5_000)).toBe(4401);
    // The token the password change answered opens a socket again.
    const again = await connect(`${wsA}?token=${changed.json().access_token}`);
    expect(await again.ready()).toBe(true);
    again.socket.close();
  });

  it('an unrelated user’s socket stays open', async () => {
    const admin = await seedUser(t.db, 'ROLE_SUPER_ADMIN');
    const bystander = await seedUser(t.db, 'ROLE_INDUSTRIAL');
    const target = await seedUser(t.db, 'ROLE_INDUSTRIAL');
    const socket = await connect(`${wsA}?token=${bearer(bystander.id, 'ROLE_INDUSTRIAL')}`);
    expect(await socket.ready()).toBe(true);
    await call(
      'GET',
      `/api/users/activate-account/${target.id}`,
      bearer(admin.id, 'ROLE_SUPER_ADMIN'),
    );
    expect(await closedWithin(socket, 500)).toBe('open');
    socket.socket.close();
  });

  it('the periodic recheck closes a socket whose user was deactivated outside the API', async () => {
    const user = await seedUser(t.db, 'ROLE_INDUSTRIAL');
    const socket = await connect(`${wsC}?token=${bearer(user.id, 'ROLE_INDUSTRIAL')}`);
    expect(await socket.ready()).toBe(true);
    // No notice is published: only the recheck (every 300 ms on `c`) can see it.
    await t.db.updateTable('users').set({ is_active: false }).where('id', '=', user.id).execute();
    expect(await closedWithin(socket, 5_000)).toBe(4401);
  });
});
