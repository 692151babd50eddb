import { writeBenchmarkSection } from './report.js';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { openSync } from 'node:fs';
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
 * open-loop rate (BENCH_LAG_RATES, default 1000 then 250 transfers/s), without Redis (projectors in the API process)
 * and with Redis (BullMQ jobs run by `npm run worker` processes).
 * Rewrites the "## Wallet" section of docs/benchmarks.md (not with BENCH_DRY=1).
 */
const env = process.env;
const SECONDS = Number(env.BENCH_SECONDS ?? 30);
const CEILING_SECONDS = Number(env.BENCH_CEILING_SECONDS ?? 10);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 64);
const WALLETS = Number(env.BENCH_WALLETS ?? 200);
const API_PROCESSES = (env.BENCH_API_PROCESSES ?? '1,2').split(',').map(Number);
const LAG_RATES = (env.BENCH_LAG_RATES ?? '1000,250').split(',').map(Number);
const LAG_SECONDS = Number(env.BENCH_LAG_SECONDS ?? 30);
const LAG_WORKERS = Number(env.BENCH_WORKERS ?? 1);
const API_LOG_LEVEL = env.BENCH_LOG_LEVEL ?? 'info';
const JWT_SECRET = 'bench-wallet-secret-0123456789-abcdefghijklmnop';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const serverScript = path.join(root, 'scripts/src/bench/wallet-server.ts');
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
  const devNull = openSync('/dev/null', 'w');
  const child = fork(serverScript, [], {
    // BENCH_API_NODE_ARGS: extra node flags for the API, e.g. --cpu-prof.
    execArgv: ['--import', 'tsx', ...(env.BENCH_API_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
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
    path: '/api/wallet/make-transfer',
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

/** Closed loop: CONNECTIONS keep-alive connections, each sending as soon as answered. */
async function closedLoop(
  db: Kysely<Database>,
  label: string,
  processes: number,
  base: string,
  seconds: number,
  next: () => OpenLoopRequest,
): Promise<Run> {
  if (env.BENCH_STATEMENTS) await sql`select pg_stat_statements_reset()`.execute(db);
  const server0 = descendantsCpu();
  const client0 = ownCpuSeconds();
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 30,
    requests: [{ setupRequest: (req) => ({ ...req, ...next() }) }],
  });
  const serverCpuByName = cpuBetween(server0, descendantsCpu());
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
  };
  if (env.BENCH_STATEMENTS) await printStatements(db, run.requests);
  process.stdout.write(
    `${label}, ${processes} API process(es): ${Math.round(run.requests / run.seconds)}/s,` +
      ` p50 ${run.p50} ms, p99 ${run.p99} ms, server CPU ${run.serverCpu.toFixed(1)} s ${JSON.stringify(run.serverCpuByName, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(1)) : v))},` +
      ` client CPU ${run.clientCpu.toFixed(1)} s, ${JSON.stringify(statuses)}` +
      `${run.errors ? `, ${run.errors} errors` : ''}\n`,
  );
  return run;
}

/** The statements PostgreSQL ran since the last reset, per request, by total time. */
async function printStatements(db: Kysely<Database>, requests: number): Promise<void> {
  const rows = (
    await sql<{ calls: number; ms: number; query: string }>`
      select calls, total_exec_time::float8 as ms, query from pg_stat_statements
      order by total_exec_time desc limit 25`.execute(db)
  ).rows;
  for (const r of rows) {
    process.stdout.write(
      `${(Number(r.calls) / requests).toFixed(2).padStart(7)} calls/req ${(r.ms / requests).toFixed(3).padStart(7)} ms/req  ${r.query.replace(/\s+/g, ' ').slice(0, 150)}\n`,
    );
  }
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
      ...(env.BENCH_STATEMENTS
        ? { settings: { shared_preload_libraries: 'pg_stat_statements' } }
        : {}),
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
        await projectionsCaughtUp(db);
        const pingAuth = payers[0]!.auth;
        runs.push(
          await closedLoop(
            db,
            'HTTP ceiling (JWT verify, 200)',
            processes,
            api.base,
            CEILING_SECONDS,
            () => ({
              method: 'GET',
              path: '/api/bench/ping',
              headers: { authorization: pingAuth },
            }),
          ),
        );
        const run = randomUUID().slice(0, 8);
        let i = 0;
        runs.push(
          await closedLoop(db, 'POST /api/wallet/make-transfer', processes, api.base, SECONDS, () =>
            transferRequest(payers, run, i++),
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
    for (const rate of LAG_RATES) {
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
  if (env.BENCH_DRY) return; // smoke runs do not touch docs/benchmarks.md
  await writeSection(runs, lagRuns, pgVersion, !env.BENCH_DATABASE_URL, [
    loadBefore,
    os.loadavg()[0]!,
  ]);
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
    await projectionsCaughtUp(db);
    const from = await head(db);
    const probe = new LagProbe(db);
    probe.start();
    const server0 = descendantsCpu();
    const run = randomUUID().slice(0, 8);
    const load = await openLoop(api.base, rate, LAG_SECONDS, (i) =>
      transferRequest(payers, run, i),
    );
    const serverCpu = sum(cpuBetween(server0, descendantsCpu()));
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
    };
    process.stdout.write(
      `lag at ${rate}/s, ${result.dispatch}: ${load.sent} sent in ${load.seconds.toFixed(1)} s` +
        `${load.sustained ? '' : ' (NOT sustained: backlog over 5 s, stopped)'},` +
        ` request p50 ${result.p50.toFixed(1)} ms p99 ${result.p99.toFixed(1)} ms;` +
        ` lag over ${lag.events} events p50 ${lag.p50.toFixed(1)} ms p99 ${lag.p99.toFixed(1)} ms` +
        ` max ${lag.max.toFixed(1)} ms${caughtUp ? '' : ' (NOT caught up)'};` +
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

async function writeSection(
  runs: Run[],
  lagRuns: LagRun[],
  pgVersion: string,
  embedded: boolean,
  load: number[],
) {
  const rate = (r: { requests: number; seconds: number }) => Math.round(r.requests / r.seconds);
  const best = (label: string) =>
    runs.filter((r) => r.label === label).sort((a, b) => rate(b) - rate(a))[0];
  const ceiling = best('HTTP ceiling (JWT verify, 200)');
  const transfers = best('POST /api/wallet/make-transfer');
  const lines = [
    '## Wallet',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:wallet\`` +
      ` on ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version},` +
      ` PostgreSQL ${pgVersion}${embedded ? ' (embedded, default durability: fsync on)' : ''};` +
      ` load average ${load.map((l) => l.toFixed(1)).join(' → ')} (start → end; the machine is shared).`,
    `The API runs in its own process(es) (\`scripts/src/bench/wallet-server.ts\`: the app, its` +
      ` projectors, request logs at level ${API_LOG_LEVEL} written to /dev/null); the load comes from` +
      ` autocannon in the bench process, ${CONNECTIONS} keep-alive connections, closed loop.` +
      ` Transfers between ${WALLETS} funded wallets of one cluster, each request with a JWT, zod` +
      ' validation and a fresh Idempotency-Key. Server CPU = API processes + PostgreSQL (+ Redis' +
      ' and workers), from /proc; client CPU = the load generator.',
    '',
    '| Run | API processes | Seconds | Requests | Requests/s | p50 (ms) | p99 (ms) | Server CPU-s | Requests per server CPU-s | Client CPU-s | Answers |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...runs.map(
      (r) =>
        `| ${r.label} | ${r.processes} | ${r.seconds.toFixed(1)} | ${r.requests} | ${rate(r)} |` +
        ` ${r.p50} | ${r.p99} | ${r.serverCpu.toFixed(1)} | ${Math.round(r.requests / Math.max(0.01, r.serverCpu))} |` +
        ` ${r.clientCpu.toFixed(1)} | ${answers(r.statuses, r.errors)} |`,
    ),
    '',
    ceiling && transfers
      ? `Best transfers/s: ${rate(transfers)} (${transfers.processes} API process(es)), ` +
        `${Math.round((100 * rate(transfers)) / Math.max(1, rate(ceiling)))} % of the best HTTP ceiling` +
        ` of the same run (${rate(ceiling)}/s). Target: ≥ 10,000 transfers/s with p99 ≤ 50 ms.` +
        ' On a shared machine wall-clock figures are floors; requests per server CPU-second is what' +
        ' a request costs.'
      : '',
    '',
    'Where the CPU goes (`BENCH_API_NODE_ARGS=--cpu-prof`, 2026-11-22, shares of the API process’s' +
      ' samples; `BENCH_STATEMENTS=1` for PostgreSQL). Ceiling route: socket writes (writev) 17 %,' +
      ' JWT verification (HMAC, fast-jwt, @fastify/jwt) 13 %, the request log line 8 % (before it' +
      ' skipped pino’s redaction), helmet 7 % (@fastify/helmet 13 builds the helmet middleware and' +
      ' parses the CSP on every request: ~20 µs), Fastify 5 %, GC 4 %. Transfer: socket writes 13–17 %' +
      ' (PostgreSQL queries and answers), Kysely query building 13 %, the users + roles lookup of' +
      ' `findWalletUsers` (one query per transfer) 9 %, the projectors running in the API process 6 %,' +
      ' the command pipeline (plan, encode, hash) 4 %, GC 6 %. PostgreSQL runs ~1.1 statements per' +
      ' transfer plus one `filiere_append_events` call per batch of ~12. Before the load generator' +
      ' moved out, Node fetch (undici, web streams) took ~20 % of the samples in the API’s process.',
    '',
    'Projection lag at a steady rate (open loop: request i is sent at i/rate s whatever the earlier' +
      ' answers; latency counts from that time), one API process. Lag = time the lowest checkpoint of' +
      ' all projectors reached the event (PostgreSQL clock, polled every 5 ms) minus the event’s' +
      ' `recorded_at` (start of its append transaction). A run whose backlog passes 5 s of requests' +
      ' is stopped and marked not sustained: its lag is the queue’s, not the projectors’.' +
      ' Target: lag p99 ≤ 250 ms at 1,000 transfers/s.',
    '',
    '| Rate (/s) | Dispatch | Seconds | Transfers | Request p50 (ms) | Request p99 (ms) | Lag p50 (ms) | Lag p99 (ms) | Lag max (ms) | Server CPU-s | Answers |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...lagRuns.map(
      (r) =>
        `| ${r.rate}${r.sustained ? '' : ' (not sustained)'} | ${r.dispatch} | ${r.seconds.toFixed(1)} | ${r.sent} |` +
        ` ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.lag.p50.toFixed(1)} | ${r.lag.p99.toFixed(1)} |` +
        ` ${r.lag.max.toFixed(1)}${r.caughtUp ? '' : ' (not caught up)'} |` +
        ` ${r.serverCpu.toFixed(1)} | ${answers(r.statuses, r.errors)} |`,
    ),
    '',
  ];
  await writeBenchmarkSection('## Wallet', lines);
}

await main();
process.exit(0);
