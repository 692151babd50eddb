import { writeBenchmarkSection } from './report.js';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { allMigrations, buildApp } from '@filiere/api';
import {
  createDb,
  createLogger,
  migrateToLatest,
  parseConfig,
  startEmbeddedPostgres,
  withDatabase,
  type EmbeddedPostgresHandle,
} from '@filiere/platform';
import { withAdmin } from '@filiere/platform/testing';

/**
 * `npm run bench:wallet`: transfers per second through the HTTP API (real JWT auth, zod
 * validation, idempotency keys, the command pipeline, PostgreSQL) with BENCH_CLIENTS
 * concurrent keep-alive clients over BENCH_SECONDS (30 s), beside the ceiling of the HTTP
 * stack measured in the same run: a route that only verifies the JWT and answers 200
 * (registered only here). Payers are spread over many wallets of one cluster, each paying
 * another. Rewrites the "## Wallet" section of docs/benchmarks.md.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const CEILING_SECONDS = Number(process.env.BENCH_CEILING_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 64);
const WALLETS = Number(process.env.BENCH_WALLETS ?? 200);

interface Run {
  label: string;
  requests: number;
  errors: number;
  statuses: Record<number, number>;
  seconds: number;
  p50: number;
  p99: number;
  /** CPU seconds of this process (clients and API) plus PostgreSQL, when embedded. */
  cpu: number | null;
}

let pgDataDir: string | undefined;

/** CPU seconds used so far by this process and, when embedded, every PostgreSQL process. */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  let total = (own.user + own.system) / 1e6;
  if (!pgDataDir) return total;
  const postmaster = Number(
    readFileSync(path.join(pgDataDir, 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(entry) === postmaster || Number(fields[1]) === postmaster) {
        total += (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, USER_HZ
      }
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** `clients` loops sending `request(i)` for `seconds`; latency per request in ms. */
async function drive(
  label: string,
  seconds: number,
  clients: number,
  request: (i: number) => Promise<number>,
): Promise<Run> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let errors = 0;
  let n = 0;
  const cpu0 = cpuSeconds();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const i = n++;
        const t0 = performance.now();
        try {
          const status = await request(i);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status >= 400) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const run = {
    label,
    requests: latencies.length,
    errors,
    statuses,
    seconds: elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpu: cpuSeconds() - cpu0,
  };
  process.stdout.write(
    `${label}: ${Math.round(run.requests / run.seconds)}/s, p50 ${run.p50.toFixed(1)} ms, ` +
      `p99 ${run.p99.toFixed(1)} ms, CPU ${run.cpu!.toFixed(1)} s, ` +
      `statuses ${JSON.stringify(statuses)}\n`,
  );
  return run;
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  let postgres: EmbeddedPostgresHandle | undefined;
  let adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) {
    pgDataDir = path.join(os.tmpdir(), `filiere-bench-wallet-${process.pid}`);
    postgres = await startEmbeddedPostgres({
      dataDir: pgDataDir,
      ephemeral: true,
    });
    adminUrl = postgres.url;
  }
  const name = 'bench_wallet';
  await withAdmin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  const db = createDb<any>(withDatabase(adminUrl, name), { max: 20, applicationName: 'bench' });
  const runs: Run[] = [];
  let pgVersion = '';
  try {
    await migrateToLatest(db, allMigrations);
    pgVersion = (
      await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db)
    ).rows[0]!.v;
    const config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
    const app = await buildApp({ config, db, logger: createLogger('silent', false) });
    app.get('/api/bench/ping', { preHandler: app.authenticate }, async () => ({ ok: true }));
    const base = await app.listen({ host: '127.0.0.1', port: 0 });

    // Payers: WALLETS aggregators of one cluster, each funded by a validated bank supply.
    const cluster = await db
      .insertInto('clusters')
      .values({ label: 'Cluster bench' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const roleId = async (code: string) =>
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
    const payers = rows.map((r) => ({
      id: r.id as string,
      walletId: r.wallet_id as string,
      auth: `Bearer ${app.jwt.sign({ sub: r.id as string, role: 'ROLE_INDUSTRIAL' })}`,
    }));
    const superAuth = `Bearer ${app.jwt.sign({ sub: superAdmin.id as string, role: 'ROLE_SUPER_ADMIN' })}`;
    for (const payer of payers) {
      const created = await app.inject({
        method: 'POST',
        url: '/api/supply',
        headers: { authorization: payer.auth },
        payload: {
          amount: 1_000_000_000,
          walletId: payer.walletId,
          accountType: 'BANK',
          bank: 'Banque',
        },
      });
      const validated = await app.inject({
        method: 'POST',
        url: '/api/supply/validate-bank-supply',
        headers: { authorization: superAuth },
        payload: { reference: created.json().reference },
      });
      if (validated.statusCode !== 200) throw new Error(`funding failed: ${validated.body}`);
    }
    process.stdout.write(`${WALLETS} wallets funded; ${CLIENTS} clients\n`);

    const pingAuth = payers[0]!.auth;
    runs.push(
      await drive('HTTP ceiling (JWT verify, 200)', CEILING_SECONDS, CLIENTS, async () => {
        const res = await fetch(`${base}/api/bench/ping`, {
          headers: { authorization: pingAuth },
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    const run = randomUUID().slice(0, 8);
    runs.push(
      await drive('POST /api/wallet/make-transfer', SECONDS, CLIENTS, async (i) => {
        const from = payers[i % WALLETS]!;
        const to = payers[(i * 7 + 1) % WALLETS]!;
        const res = await fetch(`${base}/api/wallet/make-transfer`, {
          method: 'POST',
          headers: {
            authorization: from.auth,
            'content-type': 'application/json',
            'idempotency-key': `${run}-${i}`,
          },
          body: JSON.stringify({
            source: from.walletId,
            destination:
              to.walletId === from.walletId ? payers[(i + 1) % WALLETS]!.walletId : to.walletId,
            amount: (i % 1000) + 1,
            reason: 'Benchmark',
          }),
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    await app.close();
  } finally {
    await db.destroy();
    await withAdmin(adminUrl, (client) =>
      client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    ).catch(() => undefined);
    await postgres?.stop();
  }
  if (process.env.BENCH_DRY) return; // smoke runs do not touch docs/benchmarks.md
  await writeSection(runs, pgVersion, !process.env.BENCH_DATABASE_URL, [
    loadBefore,
    os.loadavg()[0]!,
  ]);
}

async function writeSection(runs: Run[], pgVersion: string, embedded: boolean, load: number[]) {
  const rate = (r: Run) => Math.round(r.requests / r.seconds);
  const [ceiling, transfers] = runs as [Run, Run];
  const lines = [
    '## Wallet',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:wallet\`` +
      ` on ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version},` +
      ` PostgreSQL ${pgVersion}${embedded ? ' (embedded, default durability)' : ''};` +
      ` load average ${load.map((l) => l.toFixed(1)).join(' → ')} (start → end; the machine is shared).`,
    `One API process; ${CLIENTS} keep-alive clients (Node fetch) in the same process as the API,` +
      ` so client and server share the CPU. Transfers between ${WALLETS} funded wallets of one` +
      ' cluster, each request with a JWT, zod validation and a fresh Idempotency-Key.',
    '',
    '| Run | Seconds | Requests | Requests/s | p50 (ms) | p99 (ms) | CPU-s (Node + PG) | Requests per CPU-s | Answers |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...runs.map(
      (r) =>
        `| ${r.label} | ${r.seconds.toFixed(1)} | ${r.requests} | ${rate(r)} | ${r.p50.toFixed(1)} |` +
        ` ${r.p99.toFixed(1)} | ${r.cpu === null ? 'n/a' : r.cpu.toFixed(1)} |` +
        ` ${r.cpu ? Math.round(r.requests / r.cpu) : 'n/a'} | ${Object.entries(r.statuses)
          .map(([s, c]) => `${s}×${c}`)
          .join(', ')}${r.errors ? ` (${r.errors} errors)` : ''} |`,
    ),
    '',
    `Transfers reach ${Math.round((100 * rate(transfers)) / Math.max(1, rate(ceiling)))} % of the` +
      ' HTTP ceiling measured in the same run (target: ≥ 10,000 transfers/s with p99 ≤ 50 ms).' +
      ' On a shared machine the wall-clock figures are floors; requests per CPU-second (this' +
      ' process, clients included, plus every PostgreSQL process, from /proc) is what a request' +
      ' costs, and what an idle machine approaches.',
    '',
  ];
  await writeBenchmarkSection('## Wallet', lines);
}

await main();
process.exit(0);
