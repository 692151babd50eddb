import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  createDb,
  findRedisServer,
  migrateToLatest,
  startEmbeddedPostgres,
  startRedisServer,
  withDatabase,
  type EmbeddedPostgresHandle,
  type RedisServerHandle,
} from '@filiere/platform';
import { withAdmin } from '@filiere/platform/testing';
import { allMigrations } from '@filiere/api/migrations';
import { memoryScratch } from './scratch.js';

/**
 * The run's temporary folder (in memory where the machine allows: scratch.ts), one
 * PostgreSQL for the whole run (TEST_DATABASE_URL, or an embedded one), a template database
 * with every migration applied that each test file copies (and the seeded templates built
 * from it during the run, dropped at the end), and a Redis (REDIS_URL, or a redis-server
 * found on PATH) when there is one. The test workers start after this and inherit TMPDIR.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // What must outlive the run (a failed browser test's pages, a failed bank test's logs) goes
  // to the usual temporary folder, not to the run's own, which is removed at its end.
  process.env.FILIERE_TEST_REPORTS_DIR ??= os.tmpdir();
  const scratch = memoryScratch();
  if (scratch) process.env.TMPDIR = scratch.dir;
  let postgres: EmbeddedPostgresHandle | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    postgres = await startEmbeddedPostgres({
      dataDir: path.join(os.tmpdir(), `filiere-test-pg-${process.pid}`),
      ephemeral: true,
      settings: {
        fsync: 'off',
        synchronous_commit: 'off',
        full_page_writes: 'off',
        max_connections: 500,
      },
    });
    adminUrl = postgres.url;
  }

  const template = `filiere_template_${process.pid}`;
  await withAdmin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${template}"`);
  });
  const db = createDb(withDatabase(adminUrl, template), { max: 1 });
  try {
    await migrateToLatest(db, allMigrations);
  } finally {
    await db.destroy();
  }

  let redis: RedisServerHandle | undefined;
  let redisUrl = process.env.REDIS_URL ?? '';
  let redisMissingReason = '';
  if (!redisUrl) {
    const bin = findRedisServer();
    if (bin) {
      redis = await startRedisServer(bin);
      redisUrl = redis.url;
    } else {
      redisMissingReason = 'REDIS_URL is not set and no redis-server was found on PATH';
    }
  }

  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', template);
  project.provide('redisUrl', redisUrl);
  project.provide('redisMissingReason', redisMissingReason);

  return async () => {
    await redis?.stop();
    // The migrated template and the seeded ones built from it during the run
    // (createSeededTestDatabase: `${template}__<seed>`).
    await withAdmin(adminUrl, async (client) => {
      const seeded = await client.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE starts_with(datname, $1 || '__')",
        [template],
      );
      for (const name of [...seeded.rows.map((row) => row.datname), template]) {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }
    }).catch(() => undefined);
    await postgres?.stop();
    scratch?.remove();
  };
}
