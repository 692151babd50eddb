import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import {
  createDb,
  createLogger,
  migrateToLatest,
  startEmbeddedPostgres,
  withDatabase,
  type EmbeddedPostgresHandle,
} from '@filiere/platform';
import { withAdmin } from '@filiere/platform/testing';
import { allMigrations } from '@filiere/api/migrations';
import { ExportRunner, type WalletExportsTables } from '@filiere/api/wallet';
import { writeBenchmarkSection } from './report.js';

/**
 * `npm run bench:export`: on BENCH_DATABASE_URL (superuser) or an embedded PostgreSQL,
 * fills `wallet_transactions` with BENCH_ROWS (1,000,000) rows of one wallet, then runs
 * one background export job the way the worker does (claim, cursor, .xlsx, progress saved,
 * READY) and prints the time, the CPU-seconds (Node and PostgreSQL), the file size and the
 * peak RSS (the kernel's high-water mark of this process). Rewrites the "## Wallet export"
 * section of docs/benchmarks.md unless BENCH_DRY is set.
 */
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const LEVEL = process.env.BENCH_LEVEL ? Number(process.env.BENCH_LEVEL) : undefined;

/**
 * CPU-seconds of this process and of this bench's own PostgreSQL (when embedded): its
 * postmaster (found by its data directory, with the time of the backends it reaped) and
 * the live children of it. Other PostgreSQL servers on the machine are not counted.
 */
function cpuSeconds(pgDataDir: string | undefined): { node: number; pg: number } {
  const own = process.cpuUsage();
  let pg = 0;
  if (pgDataDir) {
    const tick = 100; // USER_HZ
    const stats = new Map<number, string[]>();
    let postmaster: number | undefined;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        stats.set(Number(entry), stat.slice(stat.lastIndexOf(')') + 2).split(' '));
        if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(pgDataDir)) {
          postmaster ??= Number(entry);
        }
      } catch {
        // the process ended meanwhile
      }
    }
    for (const [pid, f] of stats) {
      const ppid = Number(f[1]);
      if (pid === postmaster) {
        pg += (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / tick;
      } else if (postmaster !== undefined && ppid === postmaster) {
        pg += (Number(f[11]) + Number(f[12])) / tick;
      }
    }
  }
  return { node: (own.user + own.system) / 1e6, pg };
}

const peakRssMiB = () => {
  const line = readFileSync('/proc/self/status', 'utf8').match(/VmHWM:\s+(\d+) kB/);
  return line ? Number(line[1]) / 1024 : process.memoryUsage().rss / 2 ** 20;
};

let postgres: EmbeddedPostgresHandle | undefined;
let adminUrl = process.env.BENCH_DATABASE_URL;
const pgDataDir = adminUrl
  ? undefined
  : path.join(os.tmpdir(), `filiere-bench-export-${process.pid}`);
if (!adminUrl) {
  postgres = await startEmbeddedPostgres({ dataDir: pgDataDir!, ephemeral: true });
  adminUrl = postgres.url;
}
const name = `bench_export_${process.pid}`;
await withAdmin(adminUrl, (c) => c.query(`create database "${name}"`));
const db = createDb<WalletExportsTables>(withDatabase(adminUrl, name), {
  max: 4,
  applicationName: 'bench-export',
});
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-export-'));
try {
  await migrateToLatest(db, allMigrations);
  const pgVersion = (await sql<{ server_version: string }>`show server_version`.execute(db))
    .rows[0]!.server_version;
  await sql`insert into wallet_transactions (id, key, wallet_id, user_id, reference, operation_type,
      direction, amount, status, reason, source_wallet_id, destination_wallet_id, source_user_id,
      destination_user_id, payment_means, destination, created_at, updated_at)
    select g, 'k' || g, 'w-bench', null, 'REF-' || g,
      (array['SUPPLY','TRANSFER','DEBIT','REFUND','STANDARD'])[g % 5 + 1],
      case when g % 2 = 0 then 'IN' else 'OUT' end, g % 100000 + 1,
      case when g % 10 = 0 then 'FAILED' else 'SUCCESS' end, 'Paiement ' || g,
      'w-bench', 'w-other', null, null, 'MOBILE_MONEY', null,
      timestamptz '2026-01-01' + g * interval '1 second', timestamptz '2026-01-01'
    from generate_series(1, ${ROWS}) g`.execute(db);
  await sql`vacuum analyze wallet_transactions`.execute(db);
  const load0 = os.loadavg()[0]!;
  const runner = new ExportRunner(db, async () => undefined, {
    dataDir,
    logger: createLogger('silent', false),
    ...(LEVEL === undefined ? {} : { level: LEVEL }),
  });
  const job = await runner.store.create({ userId: 'u-bench', walletId: 'w-bench', total: ROWS });
  const rss0 = peakRssMiB();
  const cpu0 = cpuSeconds(pgDataDir);
  const t0 = performance.now();
  await runner.runDue();
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = cpuSeconds(pgDataDir);
  const done = (await runner.store.get(job.id))!;
  if (done.status !== 'READY' || done.done !== ROWS) {
    throw new Error(`export ended ${done.status} with ${done.done} rows: ${done.error}`);
  }
  const size = (await stat(runner.fileOf(done.file!))).size;
  const peak = peakRssMiB();
  const node = cpu1.node - cpu0.node;
  const pg = cpu1.pg - cpu0.pg;
  const load1 = os.loadavg()[0]!;
  const summary =
    `export of ${ROWS.toLocaleString('en')} transactions: ${seconds.toFixed(1)} s, ` +
    `CPU ${node.toFixed(1)} s Node + ${postgres ? pg.toFixed(1) : 'n/a'} s PostgreSQL, ` +
    `${(size / 1e6).toFixed(1)} MB file, peak RSS ${peak.toFixed(0)} MiB ` +
    `(${rss0.toFixed(0)} MiB before the export; Node ${process.version}, ${os.cpus().length} CPUs, ` +
    `load ${load0.toFixed(1)} → ${load1.toFixed(1)})`;
  console.log(summary);
  if (!process.env.BENCH_DRY) {
    const now = new Date().toISOString().slice(0, 16).replace('T', ' ');
    await writeBenchmarkSection('## Wallet export', [
      '## Wallet export',
      '',
      `Measured ${now} UTC by \`npm run bench:export\` (\`scripts/src/bench/export.ts\`)` +
        ` on ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version},` +
        ` PostgreSQL ${pgVersion}${postgres ? ' (embedded)' : ''}; load average ${load0.toFixed(1)} → ${load1.toFixed(1)}` +
        ' (start → end; the machine is shared).',
      `${ROWS.toLocaleString('en')} transaction rows of one user exported by one background job as the worker runs it:` +
        ' one server-side cursor (`FETCH` 1,000 rows, the next page fetched while the last is written),' +
        ' sheet XML written by hand, deflated (level 4, native zlib) into a streaming ZIP made by yazl 3,' +
        ' progress saved every 500 ms.',
      '',
      '| Rows | Seconds | CPU-s Node | CPU-s PostgreSQL | File | Peak RSS | Target |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      `| ${ROWS} | ${seconds.toFixed(1)} | ${node.toFixed(1)} | ${postgres ? pg.toFixed(1) : 'n/a'} |` +
        ` ${(size / 1e6).toFixed(1)} MB | ${peak.toFixed(0)} MiB (${rss0.toFixed(0)} MiB before) | ≤ 30 s, ≤ 256 MB |`,
      '',
      `The export used ${(node + pg).toFixed(1)} CPU-seconds in all (Node, its zlib threads included,` +
        ` plus PostgreSQL): on 2 idle cores it cannot take less than ${((node + pg) / 2).toFixed(1)} s;` +
        ' with other work on the machine the wall clock is longer than it would be alone.',
      'Peak RSS is the kernel’s high-water mark (`VmHWM`) of the whole process, tsx and the' +
        ' bench’s own setup included. Writers measured on the same rows (2026-11-22, loaded' +
        ' machine): a hand-written ZIP writer (zlib.crc32) 28.5 s, 11.4 CPU-s Node + 3.0' +
        ' PostgreSQL, 187 MiB (yazl’s JS CRC-32 and piped stages cost 2.5–3.3 CPU-s more per' +
        ' 1,000,000 rows, docs/wallet-read-side.md); exceljs’s `WorkbookWriter` with keyset pages' +
        ' 79.6 s and 333 MiB, about 6.5 CPU-s per 100,000 rows (3.2 without styles), over the' +
        ' budget before any row is read.',
      '',
    ]);
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
  await db.destroy();
  await withAdmin(adminUrl, (c) => c.query(`drop database if exists "${name}"`));
  await postgres?.stop();
}
