import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import {
  createDb,
  migrateToLatest,
  startEmbeddedPostgres,
  withDatabase,
  type EmbeddedPostgresHandle,
} from '@filiere/platform';
import type { Database } from '../database.js';
import { allMigrations } from '../migrations.js';
import { buildTestApp } from '../test-app.js';
import { describeFailure, fuzz } from './fuzz.js';
import { seedWorld } from './world.js';

/**
 * `npm run fuzz -- [--count 10000] [--seed N] [--only I] [--keep-going]`: the fuzzer of
 * fuzz.ts against a fresh database (FUZZ_DATABASE_URL, a superuser URL, or an embedded
 * PostgreSQL). Prints the seed first, a summary by status and route, and each failing
 * request with the command that replays it; exits 1 on any failure.
 */
const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    seed: { type: 'string' },
    only: { type: 'string' },
    'keep-going': { type: 'boolean', default: false },
  },
});
const count = Number(values.count);
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
if (!Number.isSafeInteger(count) || count < 1 || !Number.isSafeInteger(seed)) {
  process.stderr.write('usage: npm run fuzz -- [--count N] [--seed N] [--only I] [--keep-going]\n');
  process.exit(2);
}
process.stdout.write(
  `fuzz: seed ${seed}, ${values.only ? `request #${values.only}` : `${count} requests`}\n`,
);

let postgres: EmbeddedPostgresHandle | undefined;
let adminUrl = process.env.FUZZ_DATABASE_URL;
if (!adminUrl) {
  postgres = await startEmbeddedPostgres({
    dataDir: path.join(os.tmpdir(), `filiere-fuzz-${process.pid}`),
    ephemeral: true,
    settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
  });
  adminUrl = postgres.url;
}
const name = `fuzz_${process.pid}_${Date.now()}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database "${name}"`);
const db = createDb<Database>(withDatabase(adminUrl, name), {
  max: 5,
  applicationName: 'filiere-fuzz',
});
let failed = false;
try {
  await migrateToLatest(db, allMigrations);
  const app = await buildTestApp(db);
  await app.ready();
  try {
    const world = await seedWorld(app, db);
    const cpu = process.cpuUsage();
    const report = await fuzz(app, db, world, {
      count,
      seed,
      ...(values.only !== undefined ? { only: Number(values.only) } : {}),
      stopAtFirst: !values['keep-going'],
      exclude: (op) => op.path === '/api/ws',
      onProgress: (done) => {
        if (done % 1000 === 0) process.stdout.write(`  ${done} requests…\n`);
      },
    });
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    process.stdout.write(
      `fuzz: ${report.requests} requests over ${report.routes} routes in ${(report.ms / 1000).toFixed(1)} s wall, ${cpuSeconds.toFixed(1)} CPU-s (this process)\n`,
    );
    process.stdout.write(`by status: ${JSON.stringify(report.byStatus)}\n`);
    for (const [route, statuses] of Object.entries(report.byRoute).sort()) {
      process.stdout.write(`  ${route.padEnd(52)} ${JSON.stringify(statuses)}\n`);
    }
    for (const failure of report.failures) {
      process.stdout.write(`${describeFailure(report, failure)}\n`);
    }
    failed = report.failures.length > 0;
    process.stdout.write(
      failed ? `fuzz: FAILED (seed ${seed})\n` : `fuzz: no failure (seed ${seed})\n`,
    );
  } finally {
    await app.close();
  }
} finally {
  await db.destroy();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
  await postgres?.stop();
}
process.exit(failed ? 1 : 0);
