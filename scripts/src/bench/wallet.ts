import { writeBenchmarkSection } from './report.js';
import { printStatements, statementSettings } from './statements.js';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import getPort from 'get-port';
import { sql, type Kysely } from 'kysely';
import { allMigrations, buildApp, type Database } from '@filiere/api';
import {
  createDb,
  createLogger,
  findRedisServer,
  migrateToLatest,
  parseConfig,
  startEmbeddedPostgres,
  startRedisServer,
  withDatabase,
  type EmbeddedPostgresHandle,
} from '@filiere/platform';
import { withAdmin } from '@filiere/platform/testing';
import { cpuBetween, descendantsCpu, ownCpuSeconds } from './cpu.js';

const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
import { LagProbe, type LagFigures } from './lag-probe.js';
import { openLoop, type OpenLoopRequest } from './open-loop.js';

/**
 * `npm run bench:wallet`: transfers per second through the HTTP API (real JWT auth, zod
 * validation, idempotency keys, the command pipeline, fsync'd PostgreSQL), beside the
 * ceiling of the HTTP stack measured in the same run (`GET /api/bench/ping`: verify the
 * JWT, answer 200), with the API in its own process(es) (wallet-server.ts) and the load
 * generated here (autocannon, closed loop: BENCH_CONNECTIONS keep-alive connections).
 * Then the projection lag (event appended → every read table updated) at a steady
 * open-loop rate (BENCH_LAG_RATES, default `half`: half the best transfers/s just measured,
 * as the lag target states it; `half-projected`: half the best counting the time its
 * projections took to catch up after the run; or a list of rates), without Redis (projectors
 * in the API process) and with Redis (BullMQ jobs run by `npm run worker` processes).
 * Rewrites the "## Wallet" section of docs/benchmarks.md (not with BENCH_DRY=1).
 * BENCH_SAVE=<file.json> keeps this run's figures; BENCH_BEFORE=<file.json> prints a run kept
 * so beside this one in the section (before/after of a change, same flags, same machine);
 * BENCH_RENDER=<file.json> rewrites the section from a kept run without measuring.
 * A short run: BENCH_SECONDS=15 BENCH_CEILING_SECONDS=8 BENCH_API_PROCESSES=1 BENCH_LAG_SECONDS=15.
 * Every measured load first runs BENCH_WARMUP_SECONDS (10) in a closed loop, not measured:
 * figures are a running API's, not those of V8 still compiling (see warmUp).
 * BENCH_API_STDOUT=<file> appends the API's stdout (request logs, `--trace-opt`…) to a file;
 * BENCH_PG_SETTINGS='{"fsync":"off"}' passes settings to the embedded PostgreSQL, and
 * BENCH_LAG_PATH=/api/health has the lag runs GET that path instead of transferring, and
 * BENCH_TRANSFER_PATH=/api/bench/post has the closed loop send the transfers' requests to a
 * route that checks them as the transfer route does (JWT, headers and body by zod) and answers
 * a 201 of a transfer's size without running the command; with BENCH_DISPATCH=none no
 * projector runs; BENCH_HEAP_SAMPLE=<file.heapprofile> records where the API allocates (V8's
 * sampling heap profiler, collected objects counted; with BENCH_HEAP_SAMPLE_PROMOTED=1 only what
 * the scavenges promoted) (diagnostics: the figures recorded are transfers' at the default
 * durability).
 */
const env = process.env;
const SECONDS = Number(env.BENCH_SECONDS ?? 30);
const CEILING_SECONDS = Number(env.BENCH_CEILING_SECONDS ?? 10);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 64);
const WALLETS = Number(env.BENCH_WALLETS ?? 200);
const API_PROCESSES = (env.BENCH_API_PROCESSES ?? '1,2').split(',').map(Number);
const LAG_RATES = (env.BENCH_LAG_RATES ?? 'half').split(',');
const LAG_SECONDS = Number(env.BENCH_LAG_SECONDS ?? 30);
const LAG_WORKERS = Number(env.BENCH_WORKERS ?? 1);
const LAG_WARMUP_SECONDS = Number(env.BENCH_LAG_WARMUP_SECONDS ?? 5);
const WARMUP_SECONDS = Number(env.BENCH_WARMUP_SECONDS ?? 10);
const API_LOG_LEVEL = env.BENCH_LOG_LEVEL ?? 'info';
const JWT_SECRET = 'bench-wallet-secret-0123456789-abcdefghijklmnop';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const serverScript = path.join(root, 'scripts/src/bench/wallet-server.ts');
/** The section's closing text (what moved the figures, the next limit), kept beside the bench. */
const NOTES = path.join(root, 'scripts/src/bench/wallet-notes.md');
const workerScript = path.join(root, 'services/worker/src/main.ts');

interface Run {
  label: string;
  processes: number;
  seconds: number;
  requests: number;
  p50: number;
  p99: number;
  serverCpu: number;
  serverCpuByName: Record<string, number>;
  clientCpu: number;
  statuses: Record<string, number>;
  errors: number;
  /** PostgreSQL statements per request (BENCH_STATEMENTS=1 only). */
  statements?: number;
  /**
   * The run's projections, caught up after it (transfers): in the closed loop the background
   * thread, at a lower priority, falls behind and projects the run's events after the clock
   * stops. Seconds from the run's end until every checkpoint reached the head, and the server
   * CPU of the run and that catch-up together.
   */
  projected?: { catchUpSeconds: number; serverCpuByName: Record<string, number> };
}

/** Node (API processes, workers) and PostgreSQL CPU milliseconds per request. */
function cpuPerRequest(byName: Record<string, number>, requests: number) {
  const per = (seconds: number) => (1000 * seconds) / Math.max(1, requests);
  return { node: per(byName.node ?? 0), postgres: per(byName.postgres ?? 0) };
}

interface LagRun {
  dispatch: string;
  rate: number;
  sustained: boolean;
  sent: number;
  seconds: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  errors: number;
  lag: LagFigures;
  caughtUp: boolean;
  serverCpu: number;
  serverCpuByName: Record<string, number>;
}

interface Payer {
  walletId: string;
  auth: string;
}

/** Starts the API (wallet-server.ts) as a child process; resolves once it listens. */
async function startApi(
  databaseUrl: string,
  processes: number,
  redisUrl?: string,
): Promise<{ base: string; stop(): Promise<void> }> {
  const port = await getPort();
  const devNull = openSync(env.BENCH_API_STDOUT ?? '/dev/null', 'a');
  const child = fork(serverScript, [], {
    // BENCH_API_NODE_ARGS: extra node flags for the API, e.g. --cpu-prof.
    // As npm start runs the API (package.json: a 64 MB semi-space).
    execArgv: [
      '--max-semi-space-size=64',
      '--import',
      'tsx',
      ...(env.BENCH_API_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
    env: {
      ...env,
      NODE_ENV: 'production',
      // Production refuses the sandbox and the demo bank; the bench only transfers, so the
      // provider is never called (its base URL is a closed loopback port).
      PAYMENT_PROVIDER: 'fedapay',
      FEDAPAY_BASE_URL: 'http://127.0.0.1:9',
      FEDAPAY_PUBLIC_KEY: 'bench-public-key',
      FEDAPAY_SECRET_KEY: 'bench-secret-key',
      SUPPLY_BANK_NAME: 'Banque du bench',
      SUPPLY_BANK_ACCOUNT: 'BJ0000000000000000000000001',
      // Production refuses the outbox; the bench sends no SMS (a closed loopback port).
      SMS_GATEWAY: 'twilio',
      TWILIO_BASE_URL: 'http://127.0.0.1:9',
      TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: 'bench-twilio-auth-token',
      TWILIO_FROM: 'FILIERE',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl ?? '',
      PORT: String(port),
      JWT_SECRET,
      LOG_LEVEL: API_LOG_LEVEL,
      BENCH_API_PROCESSES: String(processes),
    },
    // Request logs go to /dev/null: pino still formats and writes every line.
    stdio: ['ignore', devNull, 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.on('message', (m: { ready?: boolean }) => m.ready && resolve());
    child.on('exit', (code) => reject(new Error(`API exited with ${code} before listening`)));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function head(db: Kysely<Database>): Promise<number> {
  const row = (await sql<{ p: number | null }>`select max(position) as p from events`.execute(db))
    .rows[0];
  return Number(row?.p ?? 0);
}

/** Resolves once every projector's checkpoint has reached the head of the log. */
async function projectionsCaughtUp(db: Kysely<Database>, timeoutMs = 120_000): Promise<void> {
  const target = await head(db);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = (
      await sql<{
        p: number | null;
      }>`select min(position) as p from projection_checkpoints`.execute(db)
    ).rows[0];
    if (Number(row?.p ?? 0) >= target) return;
    if (Date.now() > deadline) throw new Error('projections did not catch up');
    await new Promise((r) => setTimeout(r, 100));
  }
}

function transferRequest(payers: Payer[], run: string, i: number): OpenLoopRequest {
  const from = payers[i % payers.length]!;
  let to = payers[(i * 7 + 1) % payers.length]!;
  if (to === from) to = payers[(i + 1) % payers.length]!;
  return {
    method: 'POST',
    path: env.BENCH_TRANSFER_PATH ?? '/api/wallet/make-transfer',
    headers: {
      authorization: from.auth,
      'content-type': 'application/json',
      'idempotency-key': `${run}-${i}`,
    },
    body: JSON.stringify({
      source: from.walletId,
      destination: to.walletId,
      amount: (i % 1000) + 1,
      reason: 'Benchmark',
    }),
  };
}

/** CONNECTIONS keep-alive connections for `seconds`, each sending `next()` as soon as answered. */
function keepLoading(base: string, seconds: number, next: () => OpenLoopRequest) {
  return autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 30,
    requests: [{ setupRequest: (req) => ({ ...req, ...next() }) }],
  });
}

/**
 * Closed-loop requests for `seconds`, not measured, then the projections caught up: a fresh API
 * process compiles its code while it runs (V8's tiers). At 300 transfers/s in the open loop V8
 * still finished 350 optimizations in the run's 10th–15th second and 183 in its 15th–20th
 * (`--trace-opt`), its 4 compiler threads taking ~1 ms of CPU per transfer: the lag runs
 * measured a warming API, not a running one. The closed loop gets the hot code optimized in a
 * few seconds.
 */
async function warmUp(
  db: Kysely<Database>,
  base: string,
  seconds: number,
  next: () => OpenLoopRequest,
): Promise<void> {
  if (seconds <= 0) return;
  const result = await keepLoading(base, seconds, next);
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`warm-up: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  }
  if (env.BENCH_DISPATCH !== 'none') await projectionsCaughtUp(db);
}

/** Transfers between the payers, each with a fresh Idempotency-Key. */
function transfers(payers: Payer[]): () => OpenLoopRequest {
  const run = `warm-${randomUUID().slice(0, 8)}`;
  let i = 0;
  return () => transferRequest(payers, run, i++);
}

/**
 * The PostgreSQL server processes of the bench's own connections (the lag probe polls every
 * 5 ms): their CPU is the load generator's, not the server's. At 10 requests/s they were
 * ~90 ms of PostgreSQL CPU a second, which the lag runs counted as ~0.3 ms per transfer at
 * 300/s before they were left out.
 */
async function benchBackends(db: Kysely<Database>): Promise<Set<number>> {
  const { rows } = await sql<{ pid: number }>`
    select pid from pg_stat_activity where application_name = 'bench'`.execute(db);
  return new Set(rows.map((r) => Number(r.pid)));
}

/** Closed loop: CONNECTIONS keep-alive connections, each sending as soon as answered. */
async function closedLoop(
  db: Kysely<Database>,
  label: string,
  processes: number,
  base: string,
  seconds: number,
  next: () => OpenLoopRequest,
  options: { projected?: boolean } = {},
): Promise<Run> {
  if (env.BENCH_STATEMENTS) await sql`select pg_stat_statements_reset()`.execute(db);
  const server0 = descendantsCpu();
  const client0 = ownCpuSeconds();
  const result = await keepLoading(base, seconds, next);
  const server1 = descendantsCpu();
  const backends = await benchBackends(db);
  const serverCpuByName = cpuBetween(server0, server1, backends);
  let projected: Run['projected'];
  if (options.projected) {
    const ended = performance.now();
    await projectionsCaughtUp(db);
    projected = {
      catchUpSeconds: (performance.now() - ended) / 1000,
      serverCpuByName: cpuBetween(server0, descendantsCpu(), backends),
    };
  }
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([s, v]) => [s, v.count]),
  );
  const run: Run = {
    label,
    processes,
    seconds: result.duration,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    serverCpu: sum(serverCpuByName),
    serverCpuByName,
    clientCpu: ownCpuSeconds() - client0,
    statuses,
    errors: result.errors + result.timeouts,
    ...(projected ? { projected } : {}),
  };
  if (env.BENCH_STATEMENTS) run.statements = await printStatements(db, run.requests);
  process.stdout.write(
    `${label}, ${processes} API process(es): ${Math.round(run.requests / run.seconds)}/s,` +
      ` p50 ${run.p50} ms, p99 ${run.p99} ms, server CPU ${run.serverCpu.toFixed(1)} s ${JSON.stringify(run.serverCpuByName, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(1)) : v))},` +
      ` per request Node ${cpuPerRequest(run.serverCpuByName, run.requests).node.toFixed(2)} ms` +
      ` PostgreSQL ${cpuPerRequest(run.serverCpuByName, run.requests).postgres.toFixed(2)} ms,` +
      ` client CPU ${run.clientCpu.toFixed(1)} s, ${JSON.stringify(statuses)}` +
      `${run.errors ? `, ${run.errors} errors` : ''}\n`,
  );
  if (projected) {
    const cpu = cpuPerRequest(projected.serverCpuByName, run.requests);
    process.stdout.write(
      `  with its projections (caught up ${projected.catchUpSeconds.toFixed(1)} s after the run):` +
        ` ${withProjectionsRate(run)}/s, per request Node ${cpu.node.toFixed(2)} ms` +
        ` PostgreSQL ${cpu.postgres.toFixed(2)} ms\n`,
    );
  }
  return run;
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  let postgres: EmbeddedPostgresHandle | undefined;
  let adminUrl = env.BENCH_DATABASE_URL;
  if (!adminUrl) {
    postgres = await startEmbeddedPostgres({
      dataDir: path.join(os.tmpdir(), `filiere-bench-wallet-${process.pid}`),
      ephemeral: true,
      // BENCH_STATEMENTS=1: print the statements each run sent (pg_stat_statements).
      ...statementSettings(Boolean(env.BENCH_STATEMENTS)),
      ...(env.BENCH_PG_SETTINGS ? { settings: JSON.parse(env.BENCH_PG_SETTINGS) } : {}),
    });
    adminUrl = postgres.url;
  }
  const name = 'bench_wallet';
  await withAdmin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  const databaseUrl = withDatabase(adminUrl, name);
  const db = createDb<Database>(databaseUrl, { max: 5, applicationName: 'bench' });
  const runs: Run[] = [];
  const lagRuns: LagRun[] = [];
  let pgVersion = '';
  try {
    await migrateToLatest(db, allMigrations);
    if (env.BENCH_STATEMENTS)
      await sql`create extension if not exists pg_stat_statements`.execute(db);
    pgVersion = (
      await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db)
    ).rows[0]!.v;
    const payers = await fundPayers(db);
    process.stdout.write(`${WALLETS} wallets funded; ${CONNECTIONS} connections\n`);

    for (const processes of API_PROCESSES) {
      const api = await startApi(databaseUrl, processes);
      try {
        // BENCH_DISPATCH=none (diagnostic, wallet-server.ts): no projector runs; with
        // BENCH_LAG_DISPATCH=none, measures HTTP + the command pipeline alone per transfer.
        if (env.BENCH_DISPATCH !== 'none') await projectionsCaughtUp(db);
        const pingAuth = payers[0]!.auth;
        const ping = (): OpenLoopRequest => ({
          method: 'GET',
          path: '/api/bench/ping',
          headers: { authorization: pingAuth },
        });
        await warmUp(db, api.base, WARMUP_SECONDS, ping);
        runs.push(
          await closedLoop(
            db,
            'HTTP ceiling (JWT verify, 200)',
            processes,
            api.base,
            CEILING_SECONDS,
            ping,
          ),
        );
        await warmUp(db, api.base, WARMUP_SECONDS, transfers(payers));
        const run = randomUUID().slice(0, 8);
        let i = 0;
        runs.push(
          await closedLoop(
            db,
            'POST /api/wallet/make-transfer',
            processes,
            api.base,
            SECONDS,
            () => transferRequest(payers, run, i++),
            { projected: env.BENCH_DISPATCH !== 'none' },
          ),
        );
      } finally {
        await api.stop();
      }
    }

    const redisBin = findRedisServer();
    const dispatches = (env.BENCH_LAG_DISPATCH ?? 'in-process,redis')
      .split(',')
      .filter((d) => d === 'in-process' || (d === 'redis' && redisBin));
    const bestTransfers = Math.max(
      0,
      ...runs
        .filter((r) => r.label === 'POST /api/wallet/make-transfer')
        .map((r) => r.requests / r.seconds),
    );
    const bestWithProjections = Math.max(
      0,
      ...runs.filter((r) => r.projected).map((r) => withProjectionsRate(r)),
    );
    const rates = LAG_RATES.map((r) =>
      r === 'half'
        ? Math.max(1, Math.round(bestTransfers / 2))
        : r === 'half-projected'
          ? Math.max(1, Math.round(bestWithProjections / 2))
          : Number(r),
    );
    for (const rate of rates) {
      for (const dispatch of dispatches) {
        lagRuns.push(await lagRun(db, databaseUrl, payers, dispatch, rate));
      }
    }
  } finally {
    await db.destroy();
    await withAdmin(adminUrl, (client) =>
      client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    ).catch(() => undefined);
    await postgres?.stop();
  }
  const figures: Figures = {
    at: new Date().toISOString().slice(0, 16).replace('T', ' '),
    pgVersion,
    embedded: !env.BENCH_DATABASE_URL,
    load: [loadBefore, os.loadavg()[0]!],
    flags: runFlags(),
    runs,
    lagRuns,
  };
  if (env.BENCH_SAVE) writeFileSync(env.BENCH_SAVE, JSON.stringify(figures, null, 1));
  if (env.BENCH_DRY) return; // smoke runs do not touch docs/benchmarks.md
  await writeSection(figures, readFigures(env.BENCH_BEFORE), pgVersion, !env.BENCH_DATABASE_URL);
}

/** The flags this process measures with (kept in its figures: a rendering shows the run's). */
function runFlags(): string {
  return (
    `BENCH_SECONDS=${SECONDS} BENCH_CEILING_SECONDS=${CEILING_SECONDS}` +
    ` BENCH_API_PROCESSES=${API_PROCESSES.join(',')} BENCH_LAG_SECONDS=${LAG_SECONDS}` +
    ` BENCH_LAG_RATES=${LAG_RATES.join(',')} BENCH_LAG_WARMUP_SECONDS=${LAG_WARMUP_SECONDS}` +
    ` BENCH_WARMUP_SECONDS=${WARMUP_SECONDS}`
  );
}

function readFigures(file: string | undefined): Figures | undefined {
  return file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Figures) : undefined;
}

/** One run of the bench, as BENCH_SAVE keeps it and BENCH_BEFORE reads it back. */
interface Figures {
  at: string;
  pgVersion?: string;
  embedded?: boolean;
  load: number[];
  /** The BENCH_* flags it ran with (runs kept before 2026-11-29 18:50 have none). */
  flags?: string;
  runs: Run[];
  lagRuns: LagRun[];
}

/** Open-loop transfers at `rate`/s for LAG_SECONDS while the probe watches the checkpoints. */
async function lagRun(
  db: Kysely<Database>,
  databaseUrl: string,
  payers: Payer[],
  dispatch: string,
  rate: number,
): Promise<LagRun> {
  const redis = dispatch === 'redis' ? await startRedisServer() : undefined;
  const workers: ChildProcess[] = [];
  const api = await startApi(databaseUrl, 1, redis?.url);
  try {
    for (let w = 0; redis && w < LAG_WORKERS; w++) {
      workers.push(
        spawn(process.execPath, ['--import', 'tsx', workerScript], {
          env: {
            ...env,
            DATABASE_URL: databaseUrl,
            REDIS_URL: redis.url,
            JWT_SECRET,
            LOG_LEVEL: 'warn',
          },
          stdio: ['ignore', 'ignore', 'inherit'],
        }),
      );
    }
    // Closed-loop transfers first, projected before the clock starts: the API's code is
    // optimized and the workers (BullMQ) are up and running, so the lag measured is the
    // projections', not a start-up's.
    await warmUp(db, api.base, WARMUP_SECONDS, transfers(payers));
    // Then the rate's first LAG_WARMUP_SECONDS, not measured either: the first second at the
    // rate built a backlog that the measured run's p99 counted (seconds, in a run of 15 s).
    if (LAG_WARMUP_SECONDS > 0) {
      const warmRun = `warm-${randomUUID().slice(0, 8)}`;
      await openLoop(api.base, rate, LAG_WARMUP_SECONDS, (i) =>
        transferRequest(payers, warmRun, i),
      );
    }
    await projectionsCaughtUp(db);
    const from = await head(db);
    if (env.BENCH_STATEMENTS) await sql`select pg_stat_statements_reset()`.execute(db);
    const probe = new LagProbe(db);
    probe.start();
    const server0 = descendantsCpu();
    const run = randomUUID().slice(0, 8);
    // BENCH_LAG_PATH (diagnostic): GET this path instead, e.g. /api/health, to measure what a
    // request alone costs at the rate.
    const lagPath = env.BENCH_LAG_PATH;
    const load = await openLoop(api.base, rate, LAG_SECONDS, (i) =>
      lagPath
        ? { method: 'GET', path: lagPath, headers: { authorization: payers[0]!.auth } }
        : transferRequest(payers, run, i),
    );
    const serverCpuByName = cpuBetween(server0, descendantsCpu(), await benchBackends(db));
    const serverCpu = sum(serverCpuByName);
    if (env.BENCH_STATEMENTS) await printStatements(db, load.sent);
    const to = await head(db);
    const caughtUp = await probe.stopAfter(to);
    const lag = await probe.figures(from, to);
    const at = (q: number) =>
      load.latencies[Math.min(load.latencies.length - 1, Math.floor(q * load.latencies.length))] ??
      0;
    const result: LagRun = {
      dispatch: redis
        ? `Redis (BullMQ), ${LAG_WORKERS} worker process(es)`
        : 'in-process (no Redis)',
      rate,
      sustained: load.sustained,
      sent: load.sent,
      seconds: load.seconds,
      p50: at(0.5),
      p99: at(0.99),
      statuses: load.statuses,
      errors: load.errors,
      lag,
      caughtUp,
      serverCpu,
      serverCpuByName,
    };
    process.stdout.write(
      `lag at ${rate}/s, ${result.dispatch}: ${load.sent} sent in ${load.seconds.toFixed(1)} s` +
        `${load.sustained ? '' : ' (NOT sustained: backlog over 5 s, stopped)'},` +
        ` request p50 ${result.p50.toFixed(1)} ms p99 ${result.p99.toFixed(1)} ms;` +
        ` lag over ${lag.events} events p50 ${lag.p50.toFixed(1)} ms p99 ${lag.p99.toFixed(1)} ms` +
        ` max ${lag.max.toFixed(1)} ms${caughtUp ? '' : ' (NOT caught up)'};` +
        ` CPU per transfer Node ${cpuPerRequest(serverCpuByName, load.sent).node.toFixed(2)} ms` +
        ` PostgreSQL ${cpuPerRequest(serverCpuByName, load.sent).postgres.toFixed(2)} ms;` +
        ` ${JSON.stringify(load.statuses)}` +
        `${load.errors ? `, ${load.errors} errors ${JSON.stringify(load.errorCodes)}` : ''}\n`,
    );
    return result;
  } finally {
    await api.stop();
    await Promise.all(workers.map(stopChild));
    await redis?.stop();
  }
}

/** WALLETS industrials of one cluster, each funded by a validated bank supply. */
async function fundPayers(db: Kysely<Database>): Promise<Payer[]> {
  const config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', JWT_SECRET });
  const app = await buildApp({ config, db, logger: createLogger('silent', false) });
  try {
    const cluster = await db
      .insertInto('clusters')
      .values({ label: 'Cluster bench' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const roleId = async (code: Database['roles']['code']) =>
      (await db.selectFrom('roles').select('id').where('code', '=', code).executeTakeFirstOrThrow())
        .id as number;
    const industrial = await roleId('ROLE_INDUSTRIAL');
    const rows = await db
      .insertInto('users')
      .values(
        Array.from({ length: WALLETS }, (_, i) => ({
          firstname: `Payeur${i}`,
          lastname: 'Bench',
          email: `payer${i}@bench.bj`,
          username: `payer${i}@bench.bj`,
          role_id: industrial,
          cluster_id: cluster.id,
          is_active: true,
        })),
      )
      .returning(['id', 'wallet_id'])
      .execute();
    const superAdmin = await db
      .insertInto('users')
      .values({
        firstname: 'Super',
        lastname: 'Bench',
        email: 'super@bench.bj',
        username: 'super@bench.bj',
        role_id: await roleId('ROLE_SUPER_ADMIN'),
        is_active: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const superAuth = `Bearer ${app.jwt.sign({ sub: superAdmin.id as string, role: 'ROLE_SUPER_ADMIN' })}`;
    const payers: Payer[] = [];
    for (const r of rows) {
      const auth = `Bearer ${app.jwt.sign({ sub: r.id as string, role: 'ROLE_INDUSTRIAL' })}`;
      // One supply of the most a command may move (MAX_COMMAND_AMOUNT): transfers of at most
      // 1,000 F CFA circulate between the payers, so it lasts the whole run.
      const created = await app.inject({
        method: 'POST',
        url: '/api/supply',
        headers: { authorization: auth, 'idempotency-key': randomUUID() },
        payload: {
          amount: app.deps.config.MAX_COMMAND_AMOUNT,
          walletId: r.wallet_id as string,
          accountType: 'BANK',
          bank: 'Banque',
        },
      });
      if (created.statusCode !== 201) throw new Error(`funding failed: ${created.body}`);
      const validated = await app.inject({
        method: 'POST',
        url: '/api/supply/validate-bank-supply',
        headers: { authorization: superAuth, 'idempotency-key': randomUUID() },
        payload: { reference: created.json().reference },
      });
      if (validated.statusCode !== 200) throw new Error(`funding failed: ${validated.body}`);
      payers.push({ walletId: r.wallet_id as string, auth });
    }
    return payers;
  } finally {
    await app.close();
  }
}

const answers = (statuses: Record<string, number>, errors: number) =>
  Object.entries(statuses)
    .map(([s, c]) => `${s}×${c}`)
    .join(', ') + (errors ? ` (${errors} errors)` : '');

const rate = (r: { requests: number; seconds: number }) => Math.round(r.requests / r.seconds);
/** Transfers per second of the run and its projections' catch-up after it. */
const withProjectionsRate = (r: Run) =>
  Math.round(r.requests / (r.seconds + (r.projected?.catchUpSeconds ?? 0)));
const ms = (x: number) => x.toFixed(2);

/** The summary table of one run: ceiling, transfers, ratio, latency, CPU, lag against their targets. */
function summary(title: string, f: Figures): string[] {
  const best = (label: string) =>
    f.runs.filter((r) => r.label === label).sort((a, b) => rate(b) - rate(a))[0];
  const ceiling = best('HTTP ceiling (JWT verify, 200)');
  const transfers = best('POST /api/wallet/make-transfer');
  if (!ceiling || !transfers) return [];
  const cpu = (r: Run) => cpuPerRequest(r.serverCpuByName, r.requests);
  const lines = [
    `**${title}** (${f.at} UTC, 1-min load average ${f.load.map((l) => l.toFixed(1)).join(' → ')})`,
    '',
    '| Figure | Value | Target |',
    '| --- | ---: | --- |',
    `| HTTP ceiling (JWT verify, 200), requests/s | ${rate(ceiling)} | |`,
    `| Ceiling: CPU per request, Node / PostgreSQL (ms) | ${ms(cpu(ceiling).node)} / ${ms(cpu(ceiling).postgres)} | |`,
    `| Transfers/s (${transfers.processes} API process) | ${rate(transfers)} | |`,
    `| Transfers / ceiling | ${Math.round((100 * rate(transfers)) / Math.max(1, rate(ceiling)))} % | ≥ 50 % |`,
    `| Transfer p50 / p99 (ms), closed loop, ${CONNECTIONS} connections | ${transfers.p50} / ${transfers.p99} | p99 ≤ 50 ms |`,
    `| Transfer: CPU per transfer, Node / PostgreSQL (ms) | ${ms(cpu(transfers).node)} / ${ms(cpu(transfers).postgres)} | reported |`,
  ];
  if (transfers.projected) {
    const withThem = cpuPerRequest(transfers.projected.serverCpuByName, transfers.requests);
    lines.push(
      `| Transfers/s with their projections (the run + ${transfers.projected.catchUpSeconds.toFixed(1)} s to catch up after it) | ${withProjectionsRate(transfers)} | |`,
      `| Transfer with its projections: CPU per transfer, Node / PostgreSQL (ms) | ${ms(withThem.node)} / ${ms(withThem.postgres)} | reported |`,
    );
  }
  if (transfers.statements !== undefined && ceiling.statements !== undefined) {
    lines.push(
      `| PostgreSQL statements per request, ceiling / transfer (BENCH_STATEMENTS=1) | ${ceiling.statements.toFixed(2)} / ${transfers.statements.toFixed(2)} | |`,
    );
  }
  for (const l of f.lagRuns) {
    const c = cpuPerRequest(l.serverCpuByName ?? {}, l.sent);
    const where = l.dispatch.startsWith('Redis') ? 'BullMQ' : 'in-process';
    lines.push(
      `| Lag at ${l.rate}/s${l.sustained ? '' : ' (not sustained)'}, ${where}: lag p50 / p99 (ms) | ${l.lag.p50.toFixed(0)} / ${l.lag.p99.toFixed(0)}${l.caughtUp ? '' : ' (not caught up)'} | p99 ≤ 100 ms |`,
      `| Lag at ${l.rate}/s, ${where}: request p50 / p99 (ms) | ${l.p50.toFixed(0)} / ${l.p99.toFixed(0)} | p99 ≤ 50 ms |`,
      `| Lag at ${l.rate}/s, ${where}: CPU per transfer, Node / PostgreSQL (ms) | ${ms(c.node)} / ${ms(c.postgres)} | reported |`,
    );
  }
  lines.push('');
  return lines;
}

async function writeSection(
  f: Figures,
  before: Figures | undefined,
  pgVersion: string,
  embedded: boolean,
) {
  const { runs, lagRuns, load } = f;
  const lines = [
    '## Wallet',
    '',
    `Measured ${f.at} UTC by \`npm run bench:wallet\`` +
      ` on ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version},` +
      ` PostgreSQL ${pgVersion}${embedded ? ' (embedded, default durability: fsync on)' : ''};` +
      ` load average ${load.map((l) => l.toFixed(1)).join(' → ')} (start → end; the machine is shared).`,
    `The API runs in its own process(es) (\`scripts/src/bench/wallet-server.ts\`: the app, its` +
      ` projectors, request logs at level ${API_LOG_LEVEL} written to /dev/null); the load comes from` +
      ` autocannon in the bench process, ${CONNECTIONS} keep-alive connections, closed loop, each` +
      ` measured load after ${WARMUP_SECONDS} s of the same load not measured (V8 compiles a fresh` +
      ' process’s code while it runs; a running API is warm).' +
      ` Transfers between ${WALLETS} funded wallets of one cluster, each request with a JWT, zod` +
      ' validation and a fresh Idempotency-Key. Server CPU = API processes + PostgreSQL (+ Redis' +
      ' and workers), from /proc, the PostgreSQL processes of the bench’s own connections (the lag probe) left out; client CPU = the load generator. Flags of this run:' +
      ` ${f.flags ?? runFlags()}.`,
    '',
    'The figures, as ratios within one run (the machine is shared: compare a run’s' +
      ' transfers with its own ceiling, and CPU per transfer across runs):',
    '',
    ...(before ? summary('Before', before) : []),
    ...summary(before ? 'After' : 'This run', f),
    'Every run of this one:',
    '',
    '| Run | API processes | Seconds | Requests | Requests/s | p50 (ms) | p99 (ms) | Server CPU-s | CPU per request Node / PostgreSQL (ms) | Client CPU-s | Answers |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...runs.map(
      (r) =>
        `| ${r.label} | ${r.processes} | ${r.seconds.toFixed(1)} | ${r.requests} | ${rate(r)} |` +
        ` ${r.p50} | ${r.p99} | ${r.serverCpu.toFixed(1)} |` +
        ` ${ms(cpuPerRequest(r.serverCpuByName, r.requests).node)} / ${ms(cpuPerRequest(r.serverCpuByName, r.requests).postgres)} |` +
        ` ${r.clientCpu.toFixed(1)} | ${answers(r.statuses, r.errors)} |`,
    ),
    '',
    'Projection lag at a steady rate (open loop: request i is sent at i/rate s whatever the earlier' +
      ' answers; latency counts from that time), one API process, at half the best transfers/s of' +
      ' the closed-loop run, each in a fresh API process warmed up first (not measured:' +
      ` ${WARMUP_SECONDS} s of closed-loop transfers, projected, then ${LAG_WARMUP_SECONDS} s at` +
      ' the rate), as a running API is. Lag = time the lowest checkpoint of all projectors reached the event' +
      ' (PostgreSQL clock, polled every 5 ms) minus the event’s `recorded_at` (start of its append' +
      ' transaction). A run whose backlog passes 5 s of requests is stopped and marked not' +
      ' sustained: its lag is the queue’s, not the projectors’.',
    '',
    '| Rate (/s) | Dispatch | Seconds | Transfers | Request p50 (ms) | Request p99 (ms) | Lag p50 (ms) | Lag p99 (ms) | Lag max (ms) | Server CPU-s | CPU per transfer Node / PostgreSQL (ms) | Answers |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...lagRuns.map(
      (r) =>
        `| ${r.rate}${r.sustained ? '' : ' (not sustained)'} | ${r.dispatch} | ${r.seconds.toFixed(1)} | ${r.sent} |` +
        ` ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.lag.p50.toFixed(1)} | ${r.lag.p99.toFixed(1)} |` +
        ` ${r.lag.max.toFixed(1)}${r.caughtUp ? '' : ' (not caught up)'} |` +
        ` ${r.serverCpu.toFixed(1)} |` +
        ` ${ms(cpuPerRequest(r.serverCpuByName, r.sent).node)} / ${ms(cpuPerRequest(r.serverCpuByName, r.sent).postgres)} |` +
        ` ${answers(r.statuses, r.errors)} |`,
    ),
    '',
    ...(existsSync(NOTES) ? readFileSync(NOTES, 'utf8').trimEnd().split('\n') : []),
    '',
  ];
  await writeBenchmarkSection('## Wallet', lines);
}

// BENCH_RENDER=<file.json>: rewrite the section from a run kept with BENCH_SAVE (no measuring).
const kept = readFigures(env.BENCH_RENDER);
if (kept) {
  await writeSection(
    kept,
    readFigures(env.BENCH_BEFORE),
    kept.pgVersion ?? '',
    kept.embedded ?? true,
  );
} else {
  await main();
}
process.exit(0);
