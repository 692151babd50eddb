import { writeBenchmarkSection } from './report.js';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { eventStoreMigrations } from '@filiere/event-store';
import {
  createDb,
  mergeMigrations,
  migrateToLatest,
  platformMigrations,
  startEmbeddedPostgres,
  withDatabase,
  type EmbeddedPostgresHandle,
} from '@filiere/platform';
import { withAdmin } from '@filiere/platform/testing';
import {
  projectionMigrations,
  rebuildProjector,
  type ProjectionTables,
} from '@filiere/projections';
import { countingProjector, createCountingTables } from '@filiere/projections/testing';
import { cpuBetween, descendantsCpu, ownCpuSeconds } from './cpu.js';

/**
 * `npm run bench:rebuild`: on one PostgreSQL (BENCH_DATABASE_URL, a superuser
 * URL, or an embedded one with default durability), inserts 1,000,000
 * synthetic events with one INSERT … SELECT generate_series, then times
 * `rebuildProjector` of a simple projector (one row per event plus a count per
 * stream, 1,000 streams) from position 0, swap included. Prints the figure and
 * rewrites the "## Projection rebuild" section of docs/benchmarks.md.
 */
class DryRun extends Error {}
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const STREAMS = 1000;
const BATCH = Number(process.env.BENCH_BATCH ?? 10_000);
const TARGET = 50_000;

let postgres: EmbeddedPostgresHandle | undefined;
let adminUrl = process.env.BENCH_DATABASE_URL;
const pgDataDir = path.join(os.tmpdir(), `filiere-bench-rebuild-${process.pid}`);
if (!adminUrl) {
  postgres = await startEmbeddedPostgres({ dataDir: pgDataDir, ephemeral: true });
  adminUrl = postgres.url;
}
const name = `bench_rebuild_${process.pid}`;
await withAdmin(adminUrl, (c) => c.query(`create database "${name}"`));
const db = createDb<ProjectionTables>(withDatabase(adminUrl, name), {
  max: 4,
  applicationName: 'bench-rebuild',
});
try {
  await migrateToLatest(
    db,
    mergeMigrations(platformMigrations, eventStoreMigrations, projectionMigrations),
  );
  const { rows: version } = await sql<{
    v: string;
  }>`select current_setting('server_version') as v`.execute(db);
  const loadBefore = os.loadavg()[0]!;
  let t0 = performance.now();
  await sql`
    insert into events (position, stream_id, version, type, schema_version, data, metadata, hash)
    select g, 'bench-' || (g % ${STREAMS}), g / ${STREAMS} + 1, 'Counted', 1,
           jsonb_build_object('amount', g % 1000 + 1, 'walletId', md5(g::text)),
           jsonb_build_object('commandId', md5((g * 7)::text)),
           md5(g::text) || md5((g + 1)::text)
    from generate_series(1, ${EVENTS}) g`.execute(db);
  await sql`analyze events`.execute(db);
  const insertSeconds = (performance.now() - t0) / 1000;
  process.stdout.write(`inserted ${EVENTS} events in ${insertSeconds.toFixed(1)} s\n`);

  await createCountingTables(db, 'bench');
  const node0 = ownCpuSeconds();
  const pg0 = descendantsCpu();
  t0 = performance.now();
  const result = await rebuildProjector(db, countingProjector('bench'), { batchSize: BATCH });
  const seconds = (performance.now() - t0) / 1000;
  const nodeCpu = ownCpuSeconds() - node0;
  const pgCpu = postgres ? (cpuBetween(pg0, descendantsCpu()).postgres ?? 0) : 0;
  const cpu = nodeCpu + pgCpu;
  const rate = Math.round(result.events / seconds);
  const load = Math.max(loadBefore, os.loadavg()[0]!);
  const { rows: check } = await sql<{ n: number }>`
    select count(*)::int as n from bench_applied`.execute(db);
  if (check[0]!.n !== EVENTS) throw new Error(`expected ${EVENTS} rows, got ${check[0]!.n}`);
  const cpuRate = Math.round(result.events / cpu);
  process.stdout.write(
    `CPU time: Node ${nodeCpu.toFixed(1)} s + PostgreSQL ${pgCpu.toFixed(1)} s = ${cpu.toFixed(1)} s, ${cpuRate} events per CPU-second\n`,
  );
  process.stdout.write(
    `rebuilt ${result.events} events in ${seconds.toFixed(2)} s: ${rate} events/s (target ≥ ${TARGET})\n`,
  );

  if (process.env.BENCH_DRY) throw new DryRun(); // smoke runs do not touch docs/benchmarks.md
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const section = [
    '## Projection rebuild',
    '',
    `Measured ${when} UTC by \`npm run bench:rebuild\` on ${os.cpus().length} cores, ` +
      `${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, PostgreSQL ${version[0]?.v} ` +
      `(${postgres ? 'embedded, default durability' : 'BENCH_DATABASE_URL'}).`,
    `${EVENTS.toLocaleString('en')} synthetic events on ${STREAMS} streams (one INSERT … SELECT generate_series), ` +
      `then \`rebuildProjector\` of the test counting projector (one row per event + an upserted count per stream), ` +
      `batches of ${BATCH.toLocaleString('en')} events, next batch read while the current one is applied, swap included.`,
    '',
    '| Events | Seconds | Events/s | Target | CPU-seconds (Node + PostgreSQL) | Events per CPU-second | 1-min load average |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${EVENTS} | ${seconds.toFixed(2)} | ${rate} | ≥ ${TARGET} | ${postgres ? `${nodeCpu.toFixed(1)} + ${pgCpu.toFixed(1)} = ${cpu.toFixed(1)}` : 'n/a'} | ${postgres ? cpuRate : 'n/a'} | ${load.toFixed(1)} |`,
    '',
    `Inserting the ${EVENTS.toLocaleString('en')} events took ${insertSeconds.toFixed(1)} s on the same machine. ` +
      (load > os.cpus().length
        ? `The machine was shared (load average ${load.toFixed(1)} on ${os.cpus().length} cores) while this ran, ` +
          'so the wall-clock figure is a floor; events per CPU-second (this process plus every PostgreSQL ' +
          'process, from /proc) is what the rebuild costs, and what an idle machine approaches. ' +
          'Rerun `npm run bench:rebuild` on an idle machine for the wall-clock figure.'
        : 'The machine was otherwise idle.'),
    '',
  ].join('\n');
  await writeBenchmarkSection('## Projection rebuild', section.split('\n'));
} catch (error) {
  if (!(error instanceof DryRun)) throw error;
} finally {
  await db.destroy();
  await withAdmin(adminUrl, (c) => c.query(`drop database if exists "${name}" with (force)`));
  await postgres?.stop();
}
