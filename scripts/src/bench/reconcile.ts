import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { CommandPipeline, EventStore } from '@filiere/event-store';
import {
  createDb,
  narrowDb,
  migrateToLatest,
  startEmbeddedPostgres,
  withDatabase,
  type EmbeddedPostgresHandle,
} from '@filiere/platform';
import { withAdmin } from '@filiere/platform/testing';
import { product, type Database } from '@filiere/api/modules';
import { allMigrations } from '@filiere/api/migrations';
import {
  DEFAULT_WINDOW_MS,
  runReconciliation,
  type ReconciliationTables,
} from '@filiere/api/reconciliation';
import { writeBenchmarkSection } from './report.js';

/**
 * `npm run bench:reconcile`: on BENCH_DATABASE_URL (superuser) or an embedded PostgreSQL,
 * records BENCH_LINES (1,000,000) bank statement lines of one day and as many ledger
 * movements (one INSERT … SELECT each), then closes the day once as the scheduled job does
 * (`runReconciliation`: PostgreSQL settles the pairs that name each other, the rest goes
 * through the matching rules in Node, then the day's figures and the exceptions opened). Nine
 * lines in ten carry our reference; one in ten carries none and is matched by amount, account
 * and time. Injected: 100 lines with no movement, 100 movements with no line, 100 amount
 * differences, each expected back as exactly that. Prints the time, the CPU-seconds of Node
 * and PostgreSQL and the peak RSS; rewrites the "## Reconciliation" section of
 * docs/benchmarks.md unless BENCH_DRY is set.
 */
const LINES = Number(process.env.BENCH_LINES ?? 1_000_000);
const FAULTS = 100;
const DAY = '2026-12-01';

const peakRssMiB = () => {
  const line = readFileSync('/proc/self/status', 'utf8').match(/VmHWM:\s+(\d+) kB/);
  return line ? Number(line[1]) / 1024 : process.memoryUsage().rss / 2 ** 20;
};

const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
/** Fields after the command (`pid (comm) state ppid …`): utime is [11], cutime [13]. */
const statOf = (pid: number | string) => {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
};
/**
 * CPU-seconds PostgreSQL spent so far: the postmaster's, its live backends' and the exited
 * ones' (reaped by the postmaster, so in its children's time). On a local server only.
 */
const postgresCpuSeconds = (postmaster: number) => {
  const own = statOf(postmaster);
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = statOf(entry);
      if (Number(stat[1]) === postmaster) ticks += Number(stat[11]) + Number(stat[12]);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks / TICKS;
};

/**
 * The largest high-water mark (`VmHWM`, MiB) among PostgreSQL's live backends: the run's own
 * connection is among them, its hash tables and the shared buffers it touched included.
 */
const postgresPeakMiB = (postmaster: number) => {
  let peak = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(statOf(entry)[1]) !== postmaster) continue;
      const kb = readFileSync(`/proc/${entry}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/);
      if (kb) peak = Math.max(peak, Number(kb[1]) / 1024);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return peak;
};

/** What moved the figures (kept with the section on each rewrite). */
const HISTORY = [
  'Where the time goes (EXPLAIN ANALYZE of the run’s statements on the bench’s data, load 20–30):' +
    ' the statement that settles the pairs takes about two thirds of PostgreSQL’s time (the' +
    ' reference join hashes 900,000 lines; the names it finds are kept once and grouped twice, by' +
    ' line and by movement, to leave out names shared or taken twice), then the reads of what' +
    ' is left (one hash anti-join of each whole side against the settled pairs), then the' +
    ' settled pairs counted per day. The run needs 13–14 CPU-seconds in all, so its wall time on' +
    ' this 2-core machine is a matter of its load: 42.5 s at load 14, 67–92 s at 25–37. The' +
    ' PostgreSQL backend’s peak is its hash tables (work_mem 32 MB, 64 MB per hash, several at once in the' +
    ' first statement) and the shared buffers it read.',
  '',
  '| date (UTC) | 1-min load | seconds | CPU-s Node + PostgreSQL | peak RSS | what changed |',
  '| --- | ---: | ---: | ---: | ---: | --- |',
  '| 2026-12-07 04:25 | 21.4 → 31.4 | 460.9 | 21.6 + not measured | 915 MiB | both sides read into Node, every line through the rules |',
  '| 2026-12-07 11:23 | 25.0 → 19.9 | 87.6 | 2.4 + 18.2 | 311 MiB | PostgreSQL settles the pairs that name each other and nothing else; the rest in keyset pages |',
  '| 2026-12-07 11:38 | 14.4 → 13.5 | 42.5 | 2.4 + 11.1 | 322 MiB | the join on the tables themselves (no CTE per side); the rest through one cursor per side |',
  '| 2026-12-07 11:51 | 29.7 → 36.6 | 91.9 | 2.6 + 12.3 | 315 MiB | the same code on a busier machine |',
  '| 2026-12-07 11:57 | 36.7 → 29.3 | 71.7 | 2.5 + 11.7 | 310 MiB | the same code; largest PostgreSQL backend 567 MiB |',
  '| 2026-12-07 12:04 | 25.5 → 26.5 | 66.6 | 2.5 + 10.8 | 314 MiB | work_mem 64 → 32 MB: largest PostgreSQL backend 567 → 379 MiB |',
  '',
];

let postgres: EmbeddedPostgresHandle | undefined;
let adminUrl = process.env.BENCH_DATABASE_URL;
if (!adminUrl) {
  postgres = await startEmbeddedPostgres({
    dataDir: path.join(os.tmpdir(), `filiere-bench-reconcile-${process.pid}`),
    ephemeral: true,
  });
  adminUrl = postgres.url;
}
const name = `bench_reconcile_${process.pid}`;
await withAdmin(adminUrl, (c) => c.query(`create database "${name}"`));
const db = createDb<Database>(withDatabase(adminUrl, name), {
  max: 4,
  applicationName: 'bench-reconcile',
});
try {
  await migrateToLatest(db, allMigrations);
  const pgVersion = (await sql<{ server_version: string }>`show server_version`.execute(db))
    .rows[0]!.server_version;
  // Line i and movement i: the same money, a few seconds apart within the day. Lines
  // 1..FAULTS have no movement; movements LINES+1..LINES+FAULTS have no line; lines
  // FAULTS+1..2*FAULTS show 1 franc more than the ledger.
  const t0 = performance.now();
  await sql`insert into reconciliation_lines (line_key, source, day, provider_reference,
      reference, direction, amount, account, occurred_at)
    select 'BANK:BK-' || i, 'BANK', ${DAY}, 'BK-' || i,
      case when i % 10 = 0 and i > ${2 * FAULTS}::int then null else 'APP-' || i end, 'IN',
      1000 + (i % 5000) + case when i > ${FAULTS}::int and i <= ${2 * FAULTS}::int then 1 else 0 end,
      case when i % 10 = 0 and i > ${2 * FAULTS}::int then '+2299' || lpad((i % 9973)::text, 7, '0') end,
      ${DAY}::timestamptz - interval '1 hour' + (i * interval '80 milliseconds')
    from generate_series(1, ${LINES}::int) as i`.execute(db);
  await sql`insert into reconciliation_movements (movement_key, channel, kind, reference,
      provider_reference, direction, amount, account, status, moved_at)
    select 'supply:APP-' || i, 'BANK', 'SUPPLY', 'APP-' || i, null, 'IN', 1000 + (i % 5000),
      case when i % 10 = 0 and i > ${2 * FAULTS}::int then '+2299' || lpad((i % 9973)::text, 7, '0') end,
      'SUCCESS',
      ${DAY}::timestamptz - interval '1 hour' + (i * interval '80 milliseconds') + interval '3 seconds'
    from generate_series(${FAULTS + 1}::int, ${LINES + FAULTS}::int) as i`.execute(db);
  // Vacuumed as tables of a running system are, so no autovacuum of the fill runs meanwhile.
  await sql`vacuum analyze reconciliation_lines`.execute(db);
  await sql`vacuum analyze reconciliation_movements`.execute(db);
  const filled = (performance.now() - t0) / 1000;

  const pipeline = new CommandPipeline(new EventStore(db, product.catalogue), {
    batchMax: 64,
    batchWaitMs: 1,
  });
  for (const stream of product.streams) pipeline.registerStreamType(stream);
  const backend = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!
    .pid;
  let postmaster: number | undefined;
  try {
    postmaster = Number(statOf(backend)[1]);
  } catch {
    // A remote server: its CPU is not measured.
  }
  const pgCpu0 = postmaster === undefined ? 0 : postgresCpuSeconds(postmaster);
  const load0 = os.loadavg()[0]!;
  const rss0 = peakRssMiB();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const result = await runReconciliation(
    {
      db: narrowDb<ReconciliationTables>()(db),
      pipeline,
      limits: { maxCommandAmount: Number.MAX_SAFE_INTEGER, maxBalance: Number.MAX_SAFE_INTEGER },
      clock: () => new Date(),
      windowMs: DEFAULT_WINDOW_MS,
    },
    'BANK',
    // The day after: what is alone on the day becomes an exception.
    '2026-12-02',
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const pgCpu =
    postmaster === undefined ? 'n/a' : (postgresCpuSeconds(postmaster) - pgCpu0).toFixed(1);
  const peak = peakRssMiB();
  const pgPeak = postmaster === undefined ? undefined : postgresPeakMiB(postmaster);
  await pipeline.close();
  const kinds = await db
    .selectFrom('events')
    .select([sql<string>`data->>'kind'`.as('kind'), (eb) => eb.fn.countAll<string>().as('n')])
    .where('type', '=', 'ExceptionOpened')
    .groupBy(sql`data->>'kind'`)
    .execute();
  const found = Object.fromEntries(kinds.map((k) => [k.kind, Number(k.n)]));
  const expected = {
    AMOUNT_MISMATCH: FAULTS,
    MISSING_IN_LEDGER: FAULTS,
    MISSING_AT_PROVIDER: FAULTS,
  };
  if (
    JSON.stringify(found, Object.keys(expected).sort()) !==
    JSON.stringify(expected, Object.keys(expected).sort())
  ) {
    throw new Error(
      `exceptions found ${JSON.stringify(found)}, expected ${JSON.stringify(expected)}`,
    );
  }
  const load1 = os.loadavg()[0]!;
  const summary =
    `reconciliation of ${LINES.toLocaleString('en')} lines against ${LINES.toLocaleString('en')} movements: ` +
    `${seconds.toFixed(1)} s (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s Node, ${pgCpu} s PostgreSQL), ` +
    `${result.matched} matched, ${result.opened} exceptions, peak RSS ${peak.toFixed(0)} MiB ` +
    `(largest PostgreSQL backend ${pgPeak === undefined ? 'n/a' : `${pgPeak.toFixed(0)} MiB`}) ` +
    `(${rss0.toFixed(0)} MiB before; filling took ${filled.toFixed(1)} s; load ${load0.toFixed(1)} → ${load1.toFixed(1)})`;
  console.log(summary);
  if (!process.env.BENCH_DRY) {
    const now = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const nodeCpu = ((cpu.user + cpu.system) / 1e6).toFixed(1);
    const verdict = (met: boolean) => (met ? 'met' : 'missed');
    await writeBenchmarkSection('## Reconciliation', [
      '## Reconciliation',
      '',
      `Measured ${now} UTC by \`npm run bench:reconcile\` (\`scripts/src/bench/reconcile.ts\`)` +
        ` on ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version},` +
        ` PostgreSQL ${pgVersion}${postgres ? ' (embedded)' : ''}; 1-min load average ${load0.toFixed(1)} → ${load1.toFixed(1)}` +
        ' (start → end of the run; the machine is shared).',
      `${LINES.toLocaleString('en')} bank statement lines of one day against as many ledger movements, closed by one` +
        ' run as the scheduled job does: PostgreSQL settles the pairs that name each other and nothing' +
        ' else (nine lines in ten), the rest (one line in ten carries no reference and is paired by' +
        ' amount, account and time; the faults) is read through cursors, 20,000 rows at a time, and goes through' +
        ` the rules in Node; then the figures, and the ${3 * FAULTS} injected exceptions opened (${FAULTS} lines` +
        ` with no movement, ${FAULTS} movements with no line, ${FAULTS} amount differences), each found as exactly that.`,
      '',
      '| Lines | Movements | Seconds | CPU-s Node | CPU-s PostgreSQL | Matched | Exceptions | Peak RSS (Node) | Target |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      `| ${LINES} | ${LINES} | ${seconds.toFixed(1)} | ${nodeCpu} | ${pgCpu} |` +
        ` ${result.matched} | ${result.opened} | ${peak.toFixed(0)} MiB (${rss0.toFixed(0)} MiB before) | ≤ 30 s, ≤ 512 MB |`,
      '',
      `Time: ${verdict(seconds <= 30)} (${seconds.toFixed(1)} s of wall time at a load of` +
        ` ${load0.toFixed(1)} → ${load1.toFixed(1)} on ${os.cpus().length} cores). Memory: ${verdict(peak * 2 ** 20 <= 512e6)}` +
        ` (${peak.toFixed(0)} MiB). Peak RSS is the kernel’s high-water mark (\`VmHWM\`) of the bench’s Node` +
        ' process, tsx and the setup included; PostgreSQL’s processes are not in it: the largest of its' +
        ` backends peaked at ${pgPeak === undefined ? 'n/a (a remote server)' : `${pgPeak.toFixed(0)} MiB`}` +
        ' (its work_mem-bounded hash tables and the shared buffers it touched). CPU-s PostgreSQL is the' +
        ' postmaster’s and its backends’ CPU time during the run, from /proc. Filling the two tables (not' +
        ` measured) took ${filled.toFixed(1)} s.`,
      '',
      ...HISTORY,
    ]);
  }
} finally {
  await db.destroy();
  await withAdmin(adminUrl, (c) => c.query(`drop database if exists "${name}"`));
  await postgres?.stop();
}
