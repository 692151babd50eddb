import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useTestDatabase } from '@filiere/platform/testing';
import { pgPushPublisher, pgPushSource, type PushSource } from '@filiere/projections';
import { bearer, seedOrganization, seedUser } from '../identity/test-support.js';
import { buildTestApp } from '../test-app.js';
import { exportSettings } from '../wallet/http/queries/export.routes.js';
import { withKey } from '../wallet/http/commands/test-support.js';
import { headPosition, project, seedWorld, type Actor, type World } from './world.js';
import type { Database } from '../database.js';

/**
 * The victim is the aggregator of the other cluster (`world.stranger`): money, transfers,
 * supplies, a financing, an export. Every other non-admin probes its data.
 */
describe('ownership probes: nobody reads or moves another user’s wallet data', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let pushes: PushSource;
  let world: World;
  let victim: Actor;
  let attackers: Actor[];
  let victimTx: number;
  let victimSupply: { reference: string };

  beforeAll(async () => {
    pushes = pgPushSource(testDb.url);
    app = await buildTestApp(testDb.db, {
      realtime: { pushes, pingIntervalMs: 1000, authTimeoutMs: 2000 },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    world = await seedWorld(app, testDb.db);
    victim = world.stranger;
    attackers = world.actors.filter(
      (a) => a !== victim && a.role !== 'ROLE_ADMIN' && a.role !== 'ROLE_SUPER_ADMIN',
    );
    const tx = await testDb.db
      .selectFrom('wallet_transactions')
      .select('id')
      .where('wallet_id', '=', victim.walletId)
      .executeTakeFirstOrThrow();
    victimTx = Number(tx.id);
    victimSupply = await testDb.db
      .selectFrom('wallet_supplies')
      .select('reference')
      .where('owner_user_id', '=', victim.id)
      .executeTakeFirstOrThrow();
  });
  afterAll(async () => {
    await app?.close();
    await pushes?.close();
  });

  const get = (who: Actor, url: string) => app.inject({ method: 'GET', url, headers: who.headers });

  it('reads of another user’s wallet, transactions, supplies, financings and export → 403/404', async () => {
    const urls = [
      `/api/wallet/stats/${victim.walletId}/2026`,
      `/api/transaction/user/${victim.id}`,
      `/api/transaction/${victimTx}`,
      `/api/supply/stats/${victim.id}`,
      `/api/supply/momo-card/${victim.id}`,
      `/api/supply/bank/${victim.id}`,
      `/api/financement/user/${victim.id}`,
      `/api/transaction/user/${victim.id}/export/xlsx`,
    ];
    const leaks: string[] = [];
    for (const attacker of attackers) {
      for (const url of urls) {
        const res = await get(attacker, url);
        if (![403, 404].includes(res.statusCode)) {
          leaks.push(`${attacker.role} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
    }
    expect(leaks).toEqual([]);
    // The owner reads them (the probes are not refused for another reason).
    for (const url of urls) expect((await get(victim, url)).statusCode, url).toBeLessThan(300);
  });

  it('audit trails of another user or cluster → 403/404, but for the platform’s auditor', async () => {
    // An organisation's accountant (in the probing cluster) is one more attacker; the world's
    // ROLE_ACCOUNTING, outside any organisation, is the platform's auditor and reads them all.
    const organizationId = await seedOrganization(testDb.db, 'Comptables Sonde SARL');
    const staff = await seedUser(testDb.db, 'ROLE_ACCOUNTING', {
      clusterId: world.clusterId,
      organizationId,
    });
    const orgAccountant = {
      headers: bearer(app, staff, 'ROLE_ACCOUNTING'),
      role: 'ROLE_ACCOUNTING',
    };
    const auditor = world.byRole.get('ROLE_ACCOUNTING')!;
    const urls = [
      `/api/users/${victim.id}/audit`,
      `/api/clusters/cluster/${world.otherClusterId}/audit`,
    ];
    const leaks: string[] = [];
    for (const attacker of [...attackers.filter((a) => a !== auditor), orgAccountant]) {
      for (const url of urls) {
        const res = await app.inject({ method: 'GET', url, headers: attacker.headers });
        if (![403, 404].includes(res.statusCode)) {
          leaks.push(`${attacker.role} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
    }
    expect(leaks).toEqual([]);
    for (const url of urls) expect((await get(auditor, url)).statusCode, url).toBe(200);
  });

  it('own-data lists and stats never include another user’s rows', async () => {
    for (const attacker of attackers) {
      const list = (await get(attacker, '/api/transaction?limit=-1')).json();
      const foreign = (list.data as { walletId: string }[]).filter(
        (t) => t.walletId !== attacker.walletId,
      );
      expect(foreign, attacker.role).toEqual([]);
      const stats = (await get(attacker, '/api/transaction/stats')).json();
      const mine = await testDb.db
        .selectFrom('wallet_reporting_totals')
        .select('count_transfer')
        .where('wallet_id', '=', attacker.walletId)
        .executeTakeFirst();
      expect(stats.countTransfer).toBe(Number(mine?.count_transfer ?? 0));
    }
  });

  it('supply verification of another user’s payment is refused', async () => {
    const aggregator = world.byRole.get('ROLE_INDUSTRIAL')!;
    const res = await app.inject({
      method: 'GET',
      url: `/api/supply/verify/sbx_any?reference=${encodeURIComponent(victimSupply.reference)}`,
      headers: { ...aggregator.headers, 'idempotency-key': 'probe-verify' },
    });
    expect([403, 404]).toContain(res.statusCode);
  });

  it('commands on another user’s wallet are refused and append nothing', async () => {
    const aggregator = world.byRole.get('ROLE_INDUSTRIAL')!;
    const before = await headPosition(testDb.db);
    const probes = [
      {
        url: '/api/wallet/make-transfer',
        payload: {
          source: victim.walletId,
          destination: aggregator.walletId,
          amount: 1,
          reason: 'vol',
        },
      },
      {
        url: `/api/wallet/make-debit/${victim.id}`,
        payload: { paiementMethod: 'MOBILE_MONEY', amount: 1 },
      },
      {
        url: `/api/wallet/make-debit/${victim.walletId}`,
        payload: { paiementMethod: 'BANK', amount: 1 },
      },
      {
        url: '/api/supply',
        payload: { amount: 1, walletId: victim.walletId, accountType: 'MOBILE_MONEY' },
      },
    ];
    for (const probe of probes) {
      const res = await app.inject({ method: 'POST', ...probe, headers: withKey(aggregator) });
      expect(res.statusCode, `${probe.url} ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    const appended = await testDb.db
      .selectFrom('events')
      .select(['type', 'stream_id'])
      .where('position', '>', before)
      .execute();
    expect(appended.filter((e) => e.stream_id.includes(victim.walletId))).toEqual([]);
  });

  it('a background export job of another user: status and download → 403', async () => {
    const previous = exportSettings.syncLimit;
    exportSettings.syncLimit = 0;
    try {
      const started = await get(victim, `/api/transaction/user/${victim.id}/export/xlsx`);
      expect(started.statusCode).toBe(202);
      const { jobId } = started.json();
      for (const attacker of attackers.slice(0, 4)) {
        expect((await get(attacker, `/api/transaction/export/${jobId}`)).statusCode).toBe(403);
        const download = await get(attacker, `/api/transaction/export/${jobId}/download`);
        expect(download.statusCode).toBe(403);
      }
      expect((await get(victim, `/api/transaction/export/${jobId}`)).statusCode).toBe(200);
    } finally {
      exportSettings.syncLimit = previous;
    }
  });

  it('websocket: a client never receives another user’s pushes, nor joins their room', async () => {
    const { port } = app.server.address() as { port: number };
    const connect = async (who: Actor) => {
      const token = who.headers.authorization!.slice('Bearer '.length);
      const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws?token=${token}`);
      const messages: { type: string; data: any }[] = [];
      socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      for (let i = 0; i < 100 && !messages.some((m) => m.type === 'ready'); i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      return { socket, messages };
    };
    const victimSocket = await connect(victim);
    const spies = await Promise.all(attackers.map(connect));
    for (const spy of spies) spy.socket.send(JSON.stringify({ type: 'join', room: victim.id }));
    await new Promise((r) => setTimeout(r, 300)); // LISTEN connection up

    // The victim starts a top-up (it touches only the victim); projectors publish to its room.
    const res = await app.inject({
      method: 'POST',
      url: '/api/supply',
      headers: withKey(victim),
      payload: { amount: 5_000, walletId: victim.walletId, accountType: 'BANK', bank: 'BOA' },
    });
    expect(res.statusCode, res.body).toBe(201);
    await project(testDb.db, pgPushPublisher(testDb.db));
    for (let i = 0; i < 100 && victimSocket.messages.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 30));
    }
    await new Promise((r) => setTimeout(r, 300));

    const pushed = victimSocket.messages.filter((m) => !['ready', 'pong'].includes(m.type));
    expect(pushed.length).toBeGreaterThan(0);
    for (const [i, spy] of spies.entries()) {
      const got = spy.messages.filter((m) => !['ready', 'pong', 'error'].includes(m.type));
      expect(got, attackers[i]!.role).toEqual([]);
      expect(spy.messages.find((m) => m.type === 'error')?.data.statusCode).toBe(403);
      spy.socket.close();
    }
    victimSocket.socket.close();
  });
});
