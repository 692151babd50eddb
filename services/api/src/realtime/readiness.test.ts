import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, parseConfig } from '@filiere/platform';
import { findDemoUser } from '../identity/index.js';
import { ROLE } from '../kernel/roles.js';
import { DEMO_SEASON_LABEL } from '../seasons/demo/seasons.js';
import { useDemoDatabase } from '../test-demo-database.js';
import { buildTestApp } from '../test-app.js';
import { projectionsReadiness } from './metrics.js';
import { startProjectionDispatch, type ProjectionDispatch } from './projections.js';

/**
 * The demo up to its season's inputs, appended and not projected yet: what a server finds when
 * it starts on a log its projectors have not read (the demo just loaded, a deploy's backlog).
 * The same demo as the season files' (deliveries, requests, inputs): one template for them all.
 */
const t = useDemoDatabase('season-inputs');
let app: FastifyInstance;
let projections: ProjectionDispatch | undefined;

beforeAll(async () => {
  app = await buildTestApp(t.db, { readiness: { projections: projectionsReadiness(t.db) } });
});
afterAll(async () => {
  await projections?.close();
  await app?.close();
});

async function seasonLabels(): Promise<string[]> {
  const admin = await findDemoUser(t.db, 'superadmin@demo.filiere.bj');
  const res = await app.inject({
    url: '/api/seasons?page=1&limit=10',
    headers: {
      authorization: `Bearer ${app.jwt.sign({ sub: admin.id, role: ROLE.SUPER_ADMIN })}`,
    },
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: { label: string }[] }).data.map((s) => s.label);
}

describe('/api/ready and the read side', () => {
  it('answers 503 while the projectors have not read the log as it stood at start, and once it answers 200 the lists show it', async () => {
    const before = await app.inject({ url: '/api/ready' });
    expect(before.statusCode).toBe(503);
    expect(before.json().checks.projections.ok).toBe(false);
    expect(before.json().checks.projections.details.seasons.lag).toBeGreaterThan(0);
    expect(await seasonLabels()).toEqual([]);

    projections = startProjectionDispatch({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      db: t.db,
      logger: createLogger('silent', false),
      databaseUrl: t.url,
      thread: false,
    });
    let ready = await app.inject({ url: '/api/ready' });
    for (let i = 0; i < 600 && ready.statusCode !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      ready = await app.inject({ url: '/api/ready' });
    }
    expect(ready.statusCode).toBe(200);
    expect(await seasonLabels()).toEqual([DEMO_SEASON_LABEL]);
    const details = ready.json().checks.projections.details;
    expect(details.seasons.checkpoint).toBeGreaterThanOrEqual(details.startHead);
  });
});
