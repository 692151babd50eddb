import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, openSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import getPort from 'get-port';
import { sql, type Kysely } from 'kysely';
import { allMigrations, buildApp, product, type Database } from '@filiere/api';
import {
  ContractSettler,
  DeliveryContractCommands,
  debtStreamId,
  openDebt,
  type ContractFactsTables,
  type DebtKind,
  type DebtState,
  type SettleFactsTables,
} from '@filiere/api/contracts';
import { userLoader } from '@filiere/api/identity';
import type { StreamState } from '@filiere/event-store';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import {
  createDb,
  createLogger,
  migrateToLatest,
  narrowDb,
  parseConfig,
  startEmbeddedPostgres,
  withDatabase,
  type EmbeddedPostgresHandle,
} from '@filiere/platform';
import { withAdmin } from '@filiere/platform/testing';
import { writeBenchmarkSection } from './report.js';

/**
 * `npm run bench:dashboard` (issue 15): a ledger of BENCH_EVENTS events (default 1,000,000)
 * — BENCH_AGGREGATORS aggregators in 4 clusters buying from BENCH_GROWERS growers over a
 * year: bank supplies funding the aggregators, debts opened (input advances, pineapple
 * advances, social financings to an SFD), delivery contracts created (hold), confirmed,
 * delivered and settled (debts netted, the grower credited and paid out) — loaded through the
 * product's commands and run in this process (DeliveryContractCommands, ContractSettler,
 * openDebt through the pipeline; supplies through app.inject), in rounds of BENCH_ROUND
 * contracts, each round on its own business day of the past year (the commands' clocks; the
 * log's recorded_at is the real instant, which the store sets). Loading stops at BENCH_EVENTS
 * or after BENCH_LOAD_SECONDS (default 900), whichever first; the projectors catch up after
 * each round. Then, against the API in its own process (wallet-server.ts, as bench:wallet),
 * closed loops of BENCH_CONNECTIONS clients for BENCH_SECONDS each: the HTTP+JWT ceiling
 * (`GET /api/bench/ping`), `GET /api/contracts/stats` (last year) as the super admin and as
 * one aggregator, and `GET /api/wallet/:id/balance?at=` of the aggregators' wallets (the
 * longest histories) at random instants of the load. Rewrites the "## Dashboard and
 * point-in-time balance" section of docs/benchmarks.md (not with BENCH_DRY=1).
 */
const env = process.env;
const EVENTS = Number(env.BENCH_EVENTS ?? 1_000_000);
const LOAD_SECONDS = Number(env.BENCH_LOAD_SECONDS ?? 900);
const AGGREGATORS = Number(env.BENCH_AGGREGATORS ?? 20);
const GROWERS = Number(env.BENCH_GROWERS ?? 5_000);
const ROUND = Number(env.BENCH_ROUND ?? 400);
const CONCURRENCY = Number(env.BENCH_SETUP_CONCURRENCY ?? 64);
const SECONDS = Number(env.BENCH_SECONDS ?? 30);
const CEILING_SECONDS = Number(env.BENCH_CEILING_SECONDS ?? SECONDS);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 16);
const CLUSTERS = 4;
const TARGET_P99_MS = 50;
const JWT_SECRET = 'bench-dashboard-secret-0123456789-abcdefghijklm';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const serverScript = path.join(root, 'scripts/src/bench/wallet-server.ts');
/** The section's closing text (why the figures are what they are, the next limit), kept beside the bench. */
const NOTES = path.join(root, 'scripts/src/bench/dashboard-notes.md');
const write = (line: string) => process.stdout.write(`${line}\n`);
const DAY_MS = 86_400_000;

/** Runs `task(i)` for i < n, at most `limit` at once. */
async function pool(n: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, n) }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

/** Contract amounts, multiples of 1,000 F CFA. */
const amountOf = (i: number) => 40_000 + (i % 50) * 2_000;
const DEBT_KINDS: DebtKind[] = ['AVANCE_SUR_INTRANT', 'AVANCE_SUR_ANANAS', 'FINANCEMENT_SOCIAL'];

async function head(db: Kysely<Database>): Promise<number> {
  const row = (await sql<{ p: string | null }>`select max(position) as p from events`.execute(db))
    .rows[0];
  return Number(row?.p ?? 0);
}

interface Loaded {
  superAuth: string;
  aggregatorAuth: string;
  aggregatorWallets: string[];
  events: number;
  contracts: number;
  debts: number;
  rounds: number;
  seconds: number;
  firstAt: string;
  lastAt: string;
  projectSeconds: number;
}

/** Users, growers, plots, then rounds of debts and contracts until EVENTS or LOAD_SECONDS. */
async function load(db: Kysely<Database>): Promise<Loaded> {
  const config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', JWT_SECRET });
  const app = await buildApp({ config, db, logger: createLogger('silent', false) });
  const decode = catalogueDecoder(product.catalogue);
  try {
    const started = Date.now();
    const roleId = async (code: Database['roles']['code']) =>
      (await db.selectFrom('roles').select('id').where('code', '=', code).executeTakeFirstOrThrow())
        .id as number;
    const clusters = await db
      .insertInto('clusters')
      .values(Array.from({ length: CLUSTERS }, (_, c) => ({ label: `Cluster bench ${c + 1}` })))
      .returning('id')
      .execute();
    const person = (role_id: number, name: string, cluster: number, extra = {}) => ({
      firstname: name,
      lastname: 'Bench',
      email: `${name.toLowerCase()}@bench.bj`,
      username: `${name.toLowerCase()}@bench.bj`,
      role_id,
      cluster_id: clusters[cluster % CLUSTERS]!.id,
      is_active: true,
      ...extra,
    });
    const industrial = await roleId('ROLE_INDUSTRIAL');
    const aggregatorRows = await db
      .insertInto('users')
      .values(
        Array.from({ length: AGGREGATORS }, (_, a) => person(industrial, `Agregateur${a}`, a)),
      )
      .returning(['id'])
      .execute();
    const [sfdRow, superRow] = await db
      .insertInto('users')
      .values([
        person(await roleId('ROLE_SFD'), 'Sfd', 0),
        { ...person(await roleId('ROLE_SUPER_ADMIN'), 'Super', 0), cluster_id: null },
      ])
      .returning(['id'])
      .execute();
    const load = userLoader(db);
    const aggregators = await Promise.all(
      aggregatorRows.map(async (r) => (await load(String(r.id)))!),
    );
    const sfdId = String(sfdRow!.id);
    const superAuth = `Bearer ${app.jwt.sign({ sub: String(superRow!.id), role: 'ROLE_SUPER_ADMIN' })}`;
    const authOf = (a: (typeof aggregators)[number]) =>
      `Bearer ${app.jwt.sign({ sub: a.id, role: 'ROLE_INDUSTRIAL' })}`;

    const growerRole = await roleId('ROLE_GROWER');
    const growers: { id: string; user_id: string; plot: string }[] = [];
    const place = {
      department_code: 'D03',
      commune_code: 'C017',
      arrondissement_code: 'A098',
      village_code: 'V1',
    };
    for (let from = 0; from < GROWERS; from += 1_000) {
      const n = Math.min(1_000, GROWERS - from);
      // Grower g sells to aggregator g % AGGREGATORS, in that aggregator's cluster.
      const users = await db
        .insertInto('users')
        .values(
          Array.from({ length: n }, (_, k) =>
            person(growerRole, `Producteur${from + k}`, (from + k) % AGGREGATORS, {
              momo_account_number: `+22901${String(97_000_000 + from + k).slice(-8)}`,
            }),
          ),
        )
        .returning(['id', 'cluster_id'])
        .execute();
      const rows = await db
        .insertInto('growers')
        .values(users.map((u) => ({ user_id: String(u.id), cluster_id: u.cluster_id!, ...place })))
        .returning(['id', 'user_id'])
        .execute();
      const plots = await db
        .insertInto('plots')
        .values(
          rows.map((g) => ({
            grower_id: g.id,
            product_type: 'CAYENNE_LISSE' as const,
            name: 'Parcelle bench',
            area_sown: '1.5',
            ...place,
          })),
        )
        .returning(['id', 'grower_id'])
        .execute();
      const plotOf = new Map(plots.map((p) => [p.grower_id, p.id]));
      growers.push(...rows.map((g) => ({ ...g, plot: plotOf.get(g.id)! })));
    }
    write(`${AGGREGATORS} aggregators, ${GROWERS} growers with their plots`);

    /** A validated bank supply of `amount` to the aggregator's wallet (two HTTP commands). */
    const supply = async (a: (typeof aggregators)[number], amount: number) => {
      const created = await app.inject({
        method: 'POST',
        url: '/api/supply',
        headers: { authorization: authOf(a), 'idempotency-key': randomUUID() },
        payload: { amount, walletId: a.wallet_id, accountType: 'BANK', bank: 'Banque' },
      });
      if (created.statusCode !== 201) throw new Error(`supply failed: ${created.body}`);
      const validated = await app.inject({
        method: 'POST',
        url: '/api/supply/validate-bank-supply',
        headers: { authorization: superAuth, 'idempotency-key': randomUUID() },
        payload: { reference: created.json().reference },
      });
      if (validated.statusCode !== 200) throw new Error(`validation failed: ${validated.body}`);
    };

    const contractsDb = narrowDb<ContractFactsTables>()(db);
    const settleDb = narrowDb<SettleFactsTables>()(db);
    const yearAgo = Date.now() - 365 * DAY_MS;
    const firstAt = new Date().toISOString();
    let contracts = 0;
    let debts = 0;
    let rounds = 0;
    let events = await head(db);
    let projectMs = 0;
    // Funds per aggregator for 10 rounds at a time (its share of the holds, with a margin).
    const perSupply = Math.min(
      app.deps.config.MAX_COMMAND_AMOUNT,
      Math.ceil((10 * ROUND * 150_000) / AGGREGATORS / 1_000) * 1_000,
    );
    while (events < EVENTS && (Date.now() - started) / 1000 < LOAD_SECONDS) {
      const r = rounds++;
      // Round r's business day: a permutation of the year's first 350 days, so that any prefix
      // of rounds spreads over the whole year.
      const day = yearAgo + ((r * 137) % 350) * DAY_MS + 8 * 3_600_000;
      const at = (offsetDays: number) => () => new Date(day + offsetDays * DAY_MS);
      if (r % 10 === 0) await pool(AGGREGATORS, 8, (a) => supply(aggregators[a]!, perSupply));
      // A third of the round's growers owe a debt opened ten days before.
      const base = (r * ROUND) % GROWERS;
      const growerOf = (k: number) => growers[(base + k) % GROWERS]!;
      const aggregatorOf = (k: number) => aggregators[((base + k) % GROWERS) % AGGREGATORS]!;
      const opened = new Date(day - 10 * DAY_MS).toISOString();
      await pool(ROUND, CONCURRENCY, async (k) => {
        if (k % 3 !== 0) return;
        const kind = DEBT_KINDS[(k / 3 + r) % 3]!;
        const debtId = randomUUID();
        const stream = debtStreamId(debtId);
        const creditorUserId = kind === 'FINANCEMENT_SOCIAL' ? sfdId : aggregatorOf(k).id;
        await app.commands.handle({
          streams: [stream],
          metadata: { userId: creditorUserId },
          decide: ((states: Record<string, StreamState>) =>
            openDebt(
              states[stream]!.state as DebtState,
              {
                debtId,
                kind,
                creditorUserId,
                debtorGrowerId: growerOf(k).id,
                principal: 5_000 + ((k + r) % 30) * 1_000,
              },
              { now: opened },
            )) as never,
        });
        debts++;
      });
      // The contracts: created on the day, confirmed the next, delivered two days after.
      const create = new DeliveryContractCommands(contractsDb, app.commands, at(0));
      const confirm = new DeliveryContractCommands(contractsDb, app.commands, at(1));
      const deliver = new DeliveryContractCommands(contractsDb, app.commands, at(3));
      const deliveredOn = new Date(day + 3 * DAY_MS).toISOString().slice(0, 10);
      const ids: string[] = [];
      await pool(ROUND, CONCURRENCY, async (k) => {
        const grower = growerOf(k);
        const aggregator = aggregatorOf(k);
        const { contractId } = await create.create(aggregator, {
          growerId: grower.id,
          productId: grower.plot,
          quantity: 2,
          amount: amountOf(r * ROUND + k),
        });
        const growerUser = { ...aggregator, id: grower.user_id, role_code: 'ROLE_GROWER' as const };
        await confirm.confirm(growerUser, contractId);
        // Nine contracts in ten are delivered; the rest wait (the dashboard's waiting cards).
        if (k % 10 !== 9) {
          await deliver.recordDelivery(aggregator, contractId, { quantity: 2, deliveredOn });
          ids.push(contractId);
        }
        contracts++;
      });
      // The read tables (the settler reads grower_debts) catch up, then the run settles.
      let t = Date.now();
      for (const projector of product.projectors) await catchUp(db, projector, { decode });
      projectMs += Date.now() - t;
      const settler = new ContractSettler(settleDb, app.commands, { clock: at(5) });
      const chunks = Array.from({ length: Math.ceil(ids.length / 100) }, (_, c) =>
        ids.slice(c * 100, c * 100 + 100),
      );
      await pool(chunks.length, 4, async (c) => {
        for (const settled of await settler.settleMany(chunks[c]!)) {
          if ('error' in settled) throw settled.error;
        }
      });
      t = Date.now();
      for (const projector of product.projectors) await catchUp(db, projector, { decode });
      projectMs += Date.now() - t;
      events = await head(db);
      if (r % 5 === 0) {
        const s = (Date.now() - started) / 1000;
        write(
          `round ${r}: ${events} events, ${contracts} contracts, ${debts} debts, ${s.toFixed(0)} s` +
            ` (${Math.round(events / s)} events/s, ${(projectMs / 1000).toFixed(0)} s projecting)`,
        );
      }
    }
    return {
      superAuth,
      aggregatorAuth: authOf(aggregators[0]!),
      aggregatorWallets: aggregators.map((a) => a.wallet_id!),
      events,
      contracts,
      debts,
      rounds,
      seconds: (Date.now() - started) / 1000,
      firstAt,
      lastAt: new Date().toISOString(),
      projectSeconds: projectMs / 1000,
    };
  } finally {
    await app.close();
  }
}

/** Starts the API (wallet-server.ts) in its own process; resolves once it listens. */
async function startApi(databaseUrl: string) {
  const port = await getPort();
  const child = fork(serverScript, [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...env,
      NODE_ENV: 'production',
      PAYMENT_PROVIDER: 'fedapay',
      FEDAPAY_BASE_URL: 'http://127.0.0.1:9',
      FEDAPAY_PUBLIC_KEY: 'bench-public-key',
      FEDAPAY_SECRET_KEY: 'bench-secret-key',
      SUPPLY_BANK_NAME: 'Banque du bench',
      SUPPLY_BANK_ACCOUNT: 'BJ0000000000000000000000001',
      DATABASE_URL: databaseUrl,
      REDIS_URL: '',
      PORT: String(port),
      JWT_SECRET,
      LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'info',
      BENCH_API_PROCESSES: '1',
    },
    stdio: ['ignore', openSync('/dev/null', 'w'), 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.on('message', (m: { ready?: boolean }) => m.ready && resolve());
    child.on('exit', (code) => reject(new Error(`API exited with ${code} before listening`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

interface Run {
  label: string;
  seconds: number;
  requests: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  errors: number;
}

/** Closed loop: CONNECTIONS keep-alive clients, each asking again as soon as answered. */
async function closedLoop(
  label: string,
  base: string,
  seconds: number,
  next: () => { path: string; authorization: string },
): Promise<Run> {
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        setupRequest: (req) => {
          const { path, authorization } = next();
          return { ...req, method: 'GET', path, headers: { authorization } };
        },
      },
    ],
  });
  const run: Run = {
    label,
    seconds: result.duration,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([s, v]) => [s, v.count]),
    ),
    errors: result.errors + result.timeouts,
  };
  write(
    `${label}: ${Math.round(run.requests / run.seconds)}/s, p50 ${run.p50} ms, p99 ${run.p99} ms,` +
      ` ${JSON.stringify(run.statuses)}${run.errors ? `, ${run.errors} errors` : ''}`,
  );
  return run;
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  let postgres: EmbeddedPostgresHandle | undefined;
  let adminUrl = env.BENCH_DATABASE_URL;
  if (!adminUrl) {
    postgres = await startEmbeddedPostgres({
      dataDir: path.join(os.tmpdir(), `filiere-bench-dashboard-${process.pid}`),
      ephemeral: true,
    });
    adminUrl = postgres.url;
  }
  const name = 'bench_dashboard';
  await withAdmin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  const databaseUrl = withDatabase(adminUrl, name);
  const db = createDb<Database>(databaseUrl, { max: 10, applicationName: 'bench' });
  const runs: Run[] = [];
  let loaded: Loaded;
  let pgVersion = '';
  let tables = '';
  let loadAtRun = 0;
  try {
    await migrateToLatest(db, allMigrations);
    pgVersion = (
      await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db)
    ).rows[0]!.v;
    loaded = await load(db);
    write(
      `loaded ${loaded.events} events (${loaded.contracts} contracts, ${loaded.debts} debts,` +
        ` ${loaded.rounds} rounds) in ${loaded.seconds.toFixed(0)} s:` +
        ` ${Math.round(loaded.events / loaded.seconds)} events/s including projection`,
    );
    await sql`analyze`.execute(db);
    tables = (
      await sql<{ t: string; n: string }>`
        select relname as t, n_live_tup::text as n from pg_stat_user_tables
        where relname in ('events', 'dashboard_daily', 'dashboard_purchases', 'dashboard_debt_daily',
          'dashboard_debts', 'wallet_balance_history')
        order by relname`.execute(db)
    ).rows
      .map((r) => `${r.t} ${Number(r.n).toLocaleString('en-US')}`)
      .join(', ');
    write(`rows: ${tables}`);
    const api = await startApi(databaseUrl);
    try {
      loadAtRun = os.loadavg()[0]!;
      const today = new Date().toISOString().slice(0, 10);
      const from = new Date(Date.now() - 365 * DAY_MS).toISOString().slice(0, 10);
      const stats = `/api/contracts/stats?from=${from}&to=${today}`;
      const l = loaded;
      runs.push(
        await closedLoop(
          'HTTP+JWT ceiling (GET /api/bench/ping)',
          api.base,
          CEILING_SECONDS,
          () => ({
            path: '/api/bench/ping',
            authorization: l.superAuth,
          }),
        ),
      );
      runs.push(
        await closedLoop('GET /api/contracts/stats, super admin (all)', api.base, SECONDS, () => ({
          path: stats,
          authorization: l.superAuth,
        })),
      );
      runs.push(
        await closedLoop('GET /api/contracts/stats, one aggregator', api.base, SECONDS, () => ({
          path: stats,
          authorization: l.aggregatorAuth,
        })),
      );
      const t0 = Date.parse(l.firstAt);
      const span = Date.parse(l.lastAt) - t0;
      let i = 0;
      runs.push(
        await closedLoop('GET /api/wallet/:id/balance?at=', api.base, SECONDS, () => {
          const wallet = l.aggregatorWallets[i++ % l.aggregatorWallets.length]!;
          const at = new Date(t0 + Math.random() * span).toISOString();
          return {
            path: `/api/wallet/${wallet}/balance?at=${encodeURIComponent(at)}`,
            authorization: l.superAuth,
          };
        }),
      );
    } finally {
      await api.stop();
    }
  } finally {
    await db.destroy();
    await withAdmin(adminUrl, (client) =>
      client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    ).catch(() => undefined);
    await postgres?.stop();
  }
  if (env.BENCH_DRY) return;
  await writeSection(loaded, runs, {
    pgVersion,
    tables,
    load: [loadBefore, loadAtRun, os.loadavg()[0]!],
  });
}

async function writeSection(
  l: Loaded,
  runs: Run[],
  m: { pgVersion: string; tables: string; load: number[] },
): Promise<void> {
  const [ceiling, ...queries] = runs;
  const line = (r: Run, target: boolean) =>
    `| ${r.label} | ${Math.round(r.requests / r.seconds)} | ${r.p50} | ${r.p99} |` +
    ` ${target ? (r.p99 <= TARGET_P99_MS ? 'met' : 'missed') : '—'} |` +
    ` ${Object.entries(r.statuses)
      .map(([s, n]) => `${n} × ${s}`)
      .join(', ')}${r.errors ? `, ${r.errors} errors` : ''} |`;
  const lines = [
    '## Dashboard and point-in-time balance',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:dashboard\`` +
      ` (\`scripts/src/bench/dashboard.ts\`) on ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB,` +
      ` Node ${process.version}, PostgreSQL ${m.pgVersion} (embedded, default durability);` +
      ` 1-min load average ${m.load.map((x) => x.toFixed(1)).join(' → ')} (before the load → at the measure → at the end):` +
      ' the machine was shared with other engineers running their tests, so every figure is a floor.',
    '',
    `The ledger: **${l.events.toLocaleString('en-US')} events** (target ${EVENTS.toLocaleString('en-US')}` +
      `${l.events < EVENTS ? `, not reached: loading stopped after ${LOAD_SECONDS} s` : ''}) —` +
      ` ${AGGREGATORS} aggregators in ${CLUSTERS} clusters, ${GROWERS.toLocaleString('en-US')} growers,` +
      ` ${l.contracts.toLocaleString('en-US')} delivery contracts (created, confirmed, nine in ten delivered and settled` +
      ` with their debts netted and the grower paid out), ${l.debts.toLocaleString('en-US')} debts, bank supplies —` +
      ` loaded through the product's commands in this process in ${l.rounds} rounds, each on its own business day of` +
      ` the past year (the commands' clocks; the log's recorded_at is the real instant), the projectors caught up` +
      ` after each round. Load rate ${Math.round(l.events / l.seconds)} events/s including` +
      ` ${l.projectSeconds.toFixed(0)} s of projection (${l.seconds.toFixed(0)} s in all), so` +
      ` ${EVENTS.toLocaleString('en-US')} events take about ${Math.round(EVENTS / (l.events / l.seconds) / 60)} min here.` +
      ` Rows: ${m.tables}.`,
    '',
    `Then the API in its own process (wallet-server.ts, as bench:wallet) and ${CONNECTIONS} keep-alive clients` +
      ' (closed loop, autocannon in the bench process) per route: the stats over the last year (`from`/`to`);' +
      " the balance of one of the aggregators' wallets (the longest histories) at a random instant of the load," +
      ' as the super admin.',
    '',
    '| Route | Requests/s | p50 ms | p99 ms | p99 ≤ 50 ms | Statuses |',
    '| --- | ---: | ---: | ---: | --- | --- |',
    line(ceiling!, false),
    ...queries.map((r) => line(r, true)),
    '',
    ...(existsSync(NOTES) ? [readFileSync(NOTES, 'utf8').trim(), ''] : []),
  ];
  await writeBenchmarkSection('## Dashboard and point-in-time balance', lines);
}

await main();
process.exit(0);
