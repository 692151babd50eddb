import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { seedCluster } from '../../../identity/test-support.js';
import type { Database } from '../../../database.js';
import { buildTestApp } from '../../../test-app.js';
import { fund, walletState, walletUser, type TestUser } from './test-support.js';

/**
 * 200 simultaneous transfers draining one wallet, sent over real HTTP to TWO API
 * instances (each with its own pool, pipeline and state cache) on the same database.
 */
describe('concurrency: 200 transfers from one wallet through two API processes', () => {
  const testDb = useTestDatabase<Database>();
  const dbs: Kysely<Database>[] = [];
  const apps: FastifyInstance[] = [];
  const urls: string[] = [];
  let payer: TestUser;
  let growers: TestUser[];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const db = createDb<Database>(testDb.url, { max: 10, applicationName: `api-${i}` });
      const app = await buildTestApp(db);
      urls.push(await app.listen({ host: '127.0.0.1', port: 0 }));
      dbs.push(db);
      apps.push(app);
    }
    const cluster = await seedCluster(testDb.db, 'Cluster concurrence');
    const superAdmin = await walletUser(apps[0]!, testDb.db, 'ROLE_SUPER_ADMIN');
    payer = await walletUser(apps[0]!, testDb.db, 'ROLE_INDUSTRIAL', { clusterId: cluster });
    growers = [];
    for (let i = 0; i < 4; i++) {
      growers.push(await walletUser(apps[0]!, testDb.db, 'ROLE_GROWER', { clusterId: cluster }));
    }
    await fund(apps[0]!, payer, superAdmin, 100_000);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const db of dbs) await db.destroy();
  });

  it('exactly the affordable transfers succeed, the rest answer 422, balances are exact', async () => {
    const amount = 700;
    const answers = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const res = await fetch(`${urls[i % 2]}/api/wallet/make-transfer`, {
          method: 'POST',
          headers: {
            ...payer.headers,
            'content-type': 'application/json',
            'idempotency-key': `drain-${i}`,
          },
          body: JSON.stringify({
            source: payer.walletId,
            destination: growers[i % 4]!.walletId,
            amount,
            reason: `Paiement ${i}`,
          }),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown>, i };
      }),
    );
    const statuses = answers.reduce<Record<number, number>>((acc, a) => {
      acc[a.status] = (acc[a.status] ?? 0) + 1;
      return acc;
    }, {});
    const affordable = Math.floor(100_000 / amount); // 142
    expect(statuses).toEqual({ 201: affordable, 422: 200 - affordable });
    for (const a of answers.filter((x) => x.status === 422)) {
      expect(a.body.missingAmount).toBeGreaterThan(0);
      expect(a.body.missingAmount).toBeLessThanOrEqual(amount);
    }
    // Both processes took part.
    expect(new Set(answers.filter((a) => a.status === 201).map((a) => a.i % 2)).size).toBe(2);

    const payerState = await walletState(apps[1]!, payer.walletId);
    expect(payerState.balance).toBe(100_000 - affordable * amount);
    expect(payerState.availableBalance).toBe(payerState.balance);
    let received = 0;
    for (const grower of growers)
      received += (await walletState(apps[0]!, grower.walletId)).balance;
    expect(received).toBe(affordable * amount);
  });
});
