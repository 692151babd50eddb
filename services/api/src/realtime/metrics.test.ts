import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import type { RoleCode } from '../http/auth.js';
import { seedUser } from '../identity/test-support.js';
import { buildTestApp } from '../test-app.js';
import type { Database } from '../database.js';

const METRICS_TOKEN = 'scrape-token-for-tests-0123456789';

describe('/api/metrics is behind a token', () => {
  const t = useTestDatabase<Database>();
  let app: FastifyInstance;
  let noToken: FastifyInstance;

  beforeAll(async () => {
    app = await buildTestApp(t.db, { env: { METRICS_TOKEN } });
    noToken = await buildTestApp(t.db);
  });
  afterAll(async () => {
    await app?.close();
    await noToken?.close();
  });

  const scrape = (on: FastifyInstance, authorization?: string) =>
    on.inject({ url: '/api/metrics', headers: authorization ? { authorization } : {} });
  // The guard loads the user: each role's token is of a real user of that role.
  const users = new Map<RoleCode, string>();
  const jwt = async (on: FastifyInstance, role: RoleCode) => {
    if (!users.has(role)) users.set(role, (await seedUser(t.db, role)).id);
    return `Bearer ${on.jwt.sign({ sub: users.get(role)!, role })}`;
  };

  it('refuses a scrape without credentials or with a wrong token (401)', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-0123456789',
      `Bearer ${METRICS_TOKEN}x`,
      `Basic ${METRICS_TOKEN}`,
    ]) {
      const res = await scrape(app, authorization);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ statusCode: 401 });
      expect(res.body).not.toContain('filiere_');
    }
  });

  it('refuses a signed-in user who is not an admin (403)', async () => {
    for (const role of ['ROLE_GROWER', 'ROLE_INDUSTRIAL', 'ROLE_CLUSTER_MANAGER'] as const) {
      const res = await scrape(app, await jwt(app, role));
      expect(res.statusCode).toBe(403);
    }
  });

  it('answers the Prometheus text to the METRICS_TOKEN bearer and to admins', async () => {
    for (const authorization of [
      `Bearer ${METRICS_TOKEN}`,
      await jwt(app, 'ROLE_ADMIN'),
      await jwt(app, 'ROLE_SUPER_ADMIN'),
    ]) {
      const res = await scrape(app, authorization);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.body).toMatch(/^# HELP filiere_/m);
      expect(res.body).toMatch(/^filiere_event_store_head_position \d+$/m);
    }
  });

  it('counts unfinished wallet jobs by kind, with the oldest one’s age', async () => {
    await t.db
      .insertInto('wallet_jobs')
      .values([
        {
          id: 'payout:a',
          kind: 'PAYOUT',
          payload: '{}',
          created_at: new Date(Date.now() - 90_000),
        },
        { id: 'payout:b', kind: 'PAYOUT', payload: '{}' },
        { id: 'verify:c', kind: 'VERIFY_SUPPLY', payload: '{}' },
      ])
      .execute();
    try {
      const res = await scrape(app, `Bearer ${METRICS_TOKEN}`);
      expect(res.body).toContain('filiere_wallet_jobs{kind="PAYOUT"} 2');
      expect(res.body).toContain('filiere_wallet_jobs{kind="VERIFY_SUPPLY"} 1');
      const age = /filiere_wallet_jobs_oldest_age_seconds\{kind="PAYOUT"\} ([\d.]+)/.exec(res.body);
      expect(Number(age?.[1])).toBeGreaterThanOrEqual(89);
    } finally {
      await t.db.deleteFrom('wallet_jobs').execute();
    }
  });

  it('without METRICS_TOKEN only admins get in; no bearer value opens it', async () => {
    expect((await scrape(noToken)).statusCode).toBe(401);
    expect((await scrape(noToken, 'Bearer undefined')).statusCode).toBe(401);
    expect((await scrape(noToken, `Bearer ${METRICS_TOKEN}`)).statusCode).toBe(401);
    expect((await scrape(noToken, await jwt(noToken, 'ROLE_SUPER_ADMIN'))).statusCode).toBe(200);
  });
});
