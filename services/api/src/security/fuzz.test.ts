import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../test-app.js';
import { describeFailure, fuzz } from './fuzz.js';
import { operationsOf } from './route-table.js';
import { seedWorld, type World } from './world.js';
import type { Database } from '../database.js';

/** `FUZZ_COUNT` and `FUZZ_SEED` override the run inside `npm test` (the CLI runs ≥ 10,000). */
const COUNT = Number(process.env.FUZZ_COUNT ?? 1500);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

describe('fuzzer over every route of the OpenAPI document', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let world: World;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
    world = await seedWorld(app, testDb.db);
  });
  afterAll(async () => app?.close());

  it('derives a request generator for every documented operation', () => {
    const operations = operationsOf(app);
    expect(operations.length).toBeGreaterThan(40);
    const withBody = operations.filter((op) => op.body).map((op) => op.name);
    expect(withBody).toContain('POST /api/wallet/make-transfer');
    expect(withBody).toContain('POST /api/supply');
  });

  it(`${COUNT} hostile requests: no 5xx, no hang, a message on every 4xx, no event from a refused one`, async () => {
    const report = await fuzz(app, testDb.db, world, {
      count: COUNT,
      seed: SEED,
      exclude: (op) => op.path === '/api/ws',
    });
    console.info(
      `fuzz seed ${report.seed}: ${report.requests} requests over ${report.routes} routes in ${report.ms} ms`,
      report.byStatus,
    );
    const failures = report.failures.map((f) => describeFailure(report, f));
    expect(failures).toEqual([]);
    expect(report.requests).toBe(COUNT);
    // Every operation was reached, and the generator gets past validation somewhere.
    expect(Object.keys(report.byRoute).length).toBe(report.routes);
    const statuses = Object.keys(report.byStatus).map(Number);
    expect(statuses.some((s) => s >= 200 && s < 300)).toBe(true);
    expect(statuses).toEqual(expect.arrayContaining([400, 401, 403, 404]));
  }, 240_000);
});
