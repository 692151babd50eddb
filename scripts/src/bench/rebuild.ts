import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
import { projectionMigrations, rebuildProjector } from '@filiere/projections';
import { countingProjector, createCountingTables } from '@filiere/projections/testing';

/**
 * `npm run bench:rebuild`: on one PostgreSQL (BENCH_DATABASE_URL, a superuser
 * URL, or an embedded one with default durability), inserts 1,000,000
 * synthetic events with one INSERT … SELECT generate_series, then times
 * `rebuildProjector` of a simple projector (one row per event plus a count per
 * stream, 1,000 streams) from position 0, swap included. Prints the figure and
 * rewrites the "## Projection rebuild" section of docs/benchmarks.md.
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const STREAMS = 1000;
const BATCH = 10_000;
const TARGET = 50_000;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let postgres: EmbeddedPostgresHandle | undefined;
let adminUrl = process.env.BENCH_DATABASE_URL;
if (!adminUrl) {
  postgres = await startEmbeddedPostgres({
    dataDir: path.join(os.tmpdir(), `filiere-bench-rebuild-${process.pid}`),
    ephemeral: true,
  });
  adminUrl = postgres.url;
}
const name = `bench_rebuild_${process.pid}`;
await withAdmin(adminUrl, (c) => c.query(`create database "${name}"`));
const db = createDb(withDatabase(adminUrl, name), { max: 4, applicationName: 'bench-rebuild' });
try {
  await migrateToLatest(
    db,
    mergeMigrations(platformMigrations, eventStoreMigrations, projectionMigrations),
  );
  const { rows: version } = await sql<{ v: string }>`show server_version`.execute(db);
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
  t0 = performance.now();
  const result = await rebuildProjector(db, countingProjector('bench'), { batchSize: BATCH });
  const seconds = (performance.now() - t0) / 1000;
  const rate = Math.round(result.events / seconds);
  const { rows: check } = await sql<{ n: number }>`
    select count(*)::int as n from bench_applied`.execute(db);
  if (check[0]!.n !== EVENTS) throw new Error(`expected ${EVENTS} rows, got ${check[0]!.n}`);
  process.stdout.write(
    `rebuilt ${result.events} events in ${seconds.toFixed(2)} s: ${rate} events/s (target ≥ ${TARGET})\n`,
  );

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
    '| Events | Seconds | Events/s | Target |',
    '| ---: | ---: | ---: | ---: |',
    `| ${EVENTS} | ${seconds.toFixed(2)} | ${rate} | ≥ ${TARGET} |`,
    '',
  ].join('\n');
  await writeSection(path.join(root, 'docs/benchmarks.md'), section);
} finally {
  await db.destroy();
  await withAdmin(adminUrl, (c) => c.query(`drop database if exists "${name}" with (force)`));
  await postgres?.stop();
}

async function writeSection(file: string, section: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  const start = text.indexOf('## Projection rebuild');
  if (start < 0) {
    await writeFile(file, `${text.trimEnd()}\n\n${section}`);
    return;
  }
  const next = text.indexOf('\n## ', start + 1);
  const end = next < 0 ? text.length : next + 1;
  await writeFile(
    file,
    `${text.slice(0, start)}${section}${next < 0 ? '' : '\n'}${text.slice(end)}`,
  );
}
