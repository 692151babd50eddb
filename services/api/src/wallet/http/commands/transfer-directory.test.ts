import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { NOT_AUTHENTICATED, STALE_READ_RETRIES } from '../../../http/auth.js';
import { userDirectory } from '../../../identity/index.js';
import { seedCluster } from '../../../identity/test-support.js';
import { buildTestApp } from '../../../test-app.js';
import { sql } from 'kysely';
import { fund, walletState, walletUser, withKey, type TestUser } from './test-support.js';
import type { Database } from '../../../database.js';

/**
 * The transfer takes its two users from the process's user directory (no round trip) and names
 * their read guards: any change of either row — here made by SQL behind the API's back, the
 * hardest case — is seen by the append, which appends nothing; the route reads them again and
 * answers as if it had read them fresh.
 */
describe('POST /api/wallet/make-transfer with users from the directory', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let superAdmin: TestUser;
  let aggregator: TestUser;
  let grower: TestUser;
  let cluster: string;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    cluster = await seedCluster(testDb.db, 'Cluster A');
    superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    aggregator = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { clusterId: cluster });
    grower = await walletUser(app, testDb.db, 'ROLE_GROWER', { clusterId: cluster });
    await fund(app, aggregator, superAdmin, 100_000);
  });
  afterAll(async () => {
    await app.close();
  });

  const transfer = (from: TestUser, to: TestUser, amount = 100) =>
    app.inject({
      method: 'POST',
      url: '/api/wallet/make-transfer',
      headers: withKey(from),
      payload: { source: from.walletId, destination: to.walletId, amount, reason: 'Avance' },
    });
  const set = (user: TestUser, values: Record<string, unknown>) =>
    testDb.db.updateTable('users').set(values).where('id', '=', user.id).execute();
  const balance = async (user: TestUser) => (await walletState(app, user.walletId)).balance;
  const countEvents = async () =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from events`.execute(testDb.db)).rows[0]!.n,
    );

  it('a deactivated sender is refused (401) though the directory remembers it active, and nothing moves', async () => {
    expect((await transfer(aggregator, grower)).statusCode).toBe(201); // both remembered now
    const before = await balance(aggregator);
    const events = await countEvents();
    await set(aggregator, { is_active: false });
    const res = await transfer(aggregator, grower);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(NOT_AUTHENTICATED);
    expect(await balance(aggregator)).toBe(before);
    expect(await countEvents()).toBe(events);
    await set(aggregator, { is_active: true });
    expect((await transfer(aggregator, grower)).statusCode).toBe(201);
  });

  it('a sender whose role no longer moves money is refused (403); its old role is not used', async () => {
    expect((await transfer(aggregator, grower)).statusCode).toBe(201);
    const accounting = await testDb.db
      .selectFrom('roles')
      .select('id')
      .where('code', '=', 'ROLE_ACCOUNTING')
      .executeTakeFirstOrThrow();
    const original = await testDb.db
      .selectFrom('users')
      .select('role_id')
      .where('id', '=', aggregator.id)
      .executeTakeFirstOrThrow();
    await set(aggregator, { role_id: accounting.id });
    const res = await transfer(aggregator, grower);
    expect(res.statusCode).toBe(403);
    await set(aggregator, { role_id: original.role_id });
    expect((await transfer(aggregator, grower)).statusCode).toBe(201);
  });

  it('a recipient deactivated or deleted since it was remembered is refused as such (422)', async () => {
    expect((await transfer(aggregator, grower)).statusCode).toBe(201);
    await set(grower, { is_active: false });
    const inactive = await transfer(aggregator, grower);
    expect(inactive.statusCode).toBe(422);
    await set(grower, { is_active: true, deleted_at: new Date() });
    const deleted = await transfer(aggregator, grower);
    expect(deleted.statusCode).toBe(422);
    expect(deleted.json().message).not.toBe(inactive.json().message);
    await set(grower, { deleted_at: null });
    expect((await transfer(aggregator, grower)).statusCode).toBe(201);
  });

  it('a recipient moved to another cluster since it was remembered is judged in its new cluster', async () => {
    expect((await transfer(aggregator, grower)).statusCode).toBe(201);
    const other = await seedCluster(testDb.db, 'Cluster B');
    await set(grower, { cluster_id: other });
    const res = await transfer(aggregator, grower);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Ce destinataire n’est pas dans votre cluster');
    await set(grower, { cluster_id: cluster });
    expect((await transfer(aggregator, grower)).statusCode).toBe(201);
  });

  it('many concurrent transfers while the recipient is renamed: each answer names it as some committed row did', async () => {
    const { firstname } = await testDb.db
      .selectFrom('users')
      .select('firstname')
      .where('id', '=', grower.id)
      .executeTakeFirstOrThrow();
    const names = new Set([firstname]);
    // One rename after the other (concurrent UPDATEs of one row may commit in any order), each
    // while the transfers are in flight. As many renames as the route has retries: each retry
    // reads the users fresh, so only a later rename can make it stale again, and every
    // transfer succeeds however the renames fall (one more could fail one: the next test).
    const renames = (async () => {
      for (let i = 0; i < STALE_READ_RETRIES; i++) {
        await new Promise((r) => setTimeout(r, 3));
        names.add(`Awa ${i}`);
        await set(grower, { firstname: `Awa ${i}` });
      }
    })();
    const moves = Array.from({ length: 40 }, () => transfer(aggregator, grower, 1));
    const [answers] = await Promise.all([Promise.all(moves), renames]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(201);
    const firstnames = answers.map((res) => res.json().destination.firstname as string);
    for (const name of firstnames) expect(names).toContain(name);
    // After the last rename, the next transfer names the last name.
    const last = await transfer(aggregator, grower, 1);
    expect(last.json().destination.firstname).toBe(`Awa ${STALE_READ_RETRIES - 1}`);
  });

  it('a recipient changed after every read: the retries end in a 409 that moved nothing', async () => {
    const directory = userDirectory(testDb.db);
    const find = directory.find.bind(directory);
    let reads = 0;
    // Each read of the recipient is followed by a change of its row before the append runs.
    const spy = vi.spyOn(directory, 'find').mockImplementation(async (id, fresh) => {
      const found = await find(id, fresh);
      if (id === grower.walletId) await set(grower, { firstname: `Awa lu ${++reads}` });
      return found;
    });
    try {
      const before = await balance(aggregator);
      const events = await countEvents();
      const res = await transfer(aggregator, grower, 1);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({
        message: 'Les données ont été modifiées entre-temps ; réessayez.',
        reason: 'STALE_READ',
        keys: [`user:${grower.id}`],
      });
      expect(reads).toBe(1 + STALE_READ_RETRIES);
      expect(await balance(aggregator)).toBe(before);
      expect(await countEvents()).toBe(events);
    } finally {
      spy.mockRestore();
    }
    // Left alone, the same transfer goes through and names the recipient as it is now.
    const res = await transfer(aggregator, grower, 1);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().destination.firstname).toBe(`Awa lu ${reads}`);
  });
});
