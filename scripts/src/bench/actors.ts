import { fork, type ChildProcess } from 'node:child_process';
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
  migrateToLatest,
  parseConfig,
  startEmbeddedPostgres,
  withDatabase,
  type EmbeddedPostgresHandle,
} from '@filiere/platform';
import { withAdmin } from '@filiere/platform/testing';
import { cpuBetween, descendantsCpu, ownCpuSeconds } from './cpu.js';
import { writeBenchmarkSection } from './report.js';

/**
 * `npm run bench:actors`: the growers list as the screen calls it (`GET /api/grower?page&
 * limit=10&q`: JWT, role and reach, the trigram search, the page with each row's sown area,
 * the count) over GROWERS growers (default 100,000) with PLOTS plots (250,000), for
 * BENCH_SECONDS (30) of BENCH_CONNECTIONS (16) closed-loop clients, as a cluster manager (its
 * cluster: half of the growers) and as the super admin (all), half the requests searching
 * (a name, a phone, a reference), half paging; beside the HTTP+JWT ceiling of the same run
 * (`GET /api/bench/ping`). The API runs in its own process (wallet-server.ts). Rewrites the
 * "## Actors: growers list" section of docs/benchmarks.md (not with BENCH_DRY=1).
 */
const env = process.env;
const GROWERS = Number(env.BENCH_GROWERS ?? 100_000);
const PLOTS = Number(env.BENCH_PLOTS ?? 250_000);
const SECONDS = Number(env.BENCH_SECONDS ?? 30);
const CEILING_SECONDS = Number(env.BENCH_CEILING_SECONDS ?? 10);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 16);
const JWT_SECRET = 'bench-actors-secret-0123456789-abcdefghijklmnop';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const serverScript = path.join(root, 'scripts/src/bench/wallet-server.ts');

const LASTNAMES = [
  'Houénou',
  'Dossou',
  'Agossou',
  'Ahouansou',
  'Zinsou',
  'Hounkpatin',
  'Gbaguidi',
  'Adjovi',
  'Akakpo',
  'Sossou',
  'Tossou',
  'Houngbédji',
  'Kpadonou',
  'Dansou',
  'Gandonou',
  'Hounsou',
  'Sènou',
  'Djossou',
  'Amoussou',
  'Ahoyo',
  'Fagbohoun',
  'Adéoti',
  'Akanni',
  'Olatoundji',
  'Fassinou',
  'Aïkpé',
  'Glèlè',
  'Agbodjan',
  'Zannou',
  'Lokossou',
  'Ahouandjinou',
  'Tchibozo',
];
const FIRSTNAMES = [
  'Comlan',
  'Kossi',
  'Codjo',
  'Sènan',
  'Sèdjro',
  'Mahougnon',
  'Afiavi',
  'Ablawa',
  'Akouavi',
  'Sènami',
  'Houéfa',
  'Rafiou',
  'Latifou',
  'Adébola',
  'Justine',
  'Hortense',
  'Pascal',
];
/** What the search box gets typed: name parts, phone digits, references. */
const SEARCHES = [
  'houe',
  'dossou',
  'agbo',
  'zinsou kossi',
  'glele',
  'sena',
  '4000123',
  'PRD-00042',
  'akanni',
];

interface Run {
  label: string;
  seconds: number;
  requests: number;
  p50: number;
  p99: number;
  serverCpu: number;
  clientCpu: number;
  statuses: Record<string, number>;
  errors: number;
}

async function startApi(databaseUrl: string): Promise<{ base: string; stop(): Promise<void> }> {
  const port = await getPort();
  const devNull = openSync('/dev/null', 'w');
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

/**
 * GROWERS grower users and rows in two clusters (a third of them in three cooperatives),
 * and PLOTS plots, written in bulk (SQL), then analysed. Returns the callers' tokens.
 */
async function seed(db: Kysely<Database>): Promise<{ manager: string; superAdmin: string }> {
  const started = Date.now();
  const clusters = await db
    .insertInto('clusters')
    .values([{ label: 'Cluster bench A' }, { label: 'Cluster bench B' }])
    .returning('id')
    .execute();
  const [a, b] = clusters.map((c) => c.id) as [string, string];
  const coops = await db
    .insertInto('organizations')
    .values(
      [1, 2, 3].map((i) => ({
        denomination: `Coopérative bench ${i}`,
        organization_type: 'COOPERATIVE' as const,
      })),
    )
    .returning('id')
    .execute();
  const role = async (code: string) =>
    (await sql<{ id: number }>`select id from roles where code = ${code}`.execute(db)).rows[0]!.id;
  const [grower, manager, superAdmin] = await Promise.all([
    role('ROLE_GROWER'),
    role('ROLE_CLUSTER_MANAGER'),
    role('ROLE_SUPER_ADMIN'),
  ]);
  const staff = await db
    .insertInto('users')
    .values([
      {
        firstname: 'Gestionnaire',
        lastname: 'Bench',
        email: 'cm@bench.bj',
        username: 'cm@bench.bj',
        role_id: manager,
        cluster_id: a,
        is_active: true,
      },
      {
        firstname: 'Super',
        lastname: 'Bench',
        email: 'sa@bench.bj',
        username: 'sa@bench.bj',
        role_id: superAdmin,
        is_active: true,
      },
    ])
    .returning('id')
    .execute();
  await sql`
    insert into users (firstname, lastname, email, username, phone, role_id, cluster_id, is_active, self_registered)
    select (${FIRSTNAMES}::text[])[1 + i % ${FIRSTNAMES.length}],
           (${LASTNAMES}::text[])[1 + (i / 7) % ${LASTNAMES.length}],
           null, '+22901' || lpad((40000000 + i)::text, 8, '0'),
           '+22901' || lpad((40000000 + i)::text, 8, '0'),
           ${grower}, case when i % 2 = 0 then ${a}::uuid else ${b}::uuid end, true, false
    from generate_series(1, ${GROWERS}) i`.execute(db);
  await sql`
    insert into growers (user_id, cluster_id, cooperative_id, department_code, commune_code,
      arrondissement_code, village_code, created_by, created_at)
    select u.id, u.cluster_id,
           case when n % 3 = 0 then (${coops.map((c) => c.id)}::uuid[])[1 + n % 9 / 3] end,
           'D03', 'C017', 'A106', 'A106-001', ${staff[1]!.id}::uuid,
           now() - make_interval(secs => ${GROWERS} - n)
    from (select id, cluster_id, row_number() over (order by phone) as n
          from users where role_id = ${grower}) u`.execute(db);
  await sql`
    insert into plots (grower_id, product_type, department_code, commune_code,
      arrondissement_code, village_code, name, latitude, longitude, area_sown, estimated_production)
    select g.id, case when k % 3 = 0 then 'PAIN_DE_SUCRE' else 'CAYENNE_LISSE' end,
           'D03', 'C017', 'A106', 'A106-001', 'Parcelle ' || k,
           6.62 + random() * 0.1, 2.1 + random() * 0.1, round((0.5 + random() * 4.5)::numeric, 2),
           round((random() * 200)::numeric, 1)
    from (select id, row_number() over () as n from growers) g
    cross join lateral generate_series(1, case when g.n <= ${PLOTS - 2 * GROWERS} then 3 else 2 end) k`.execute(
    db,
  );
  // As autovacuum leaves a live database: statistics and the visibility map (index-only counts).
  await sql`vacuum analyze`.execute(db);
  const counts = (
    await sql<{ g: string; p: string }>`select (select count(*) from growers) as g,
      (select count(*) from plots) as p`.execute(db)
  ).rows[0]!;
  process.stdout.write(
    `seeded ${counts.g} growers and ${counts.p} plots in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
  const config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', JWT_SECRET });
  const app = await buildApp({ config, db, logger: createLogger('silent', false) });
  try {
    return {
      manager: `Bearer ${app.jwt.sign({ sub: staff[0]!.id, role: 'ROLE_CLUSTER_MANAGER' })}`,
      superAdmin: `Bearer ${app.jwt.sign({ sub: staff[1]!.id, role: 'ROLE_SUPER_ADMIN' })}`,
    };
  } finally {
    await app.close();
  }
}

/** The list call as the screen makes it: every other request searches, the others page. */
function listRequest(auth: { manager: string; superAdmin: string }, i: number) {
  const who = i % 4 < 2 ? auth.manager : auth.superAdmin;
  const path =
    i % 2 === 0
      ? `/api/grower?page=1&limit=10&q=${encodeURIComponent(SEARCHES[((i / 2) % SEARCHES.length) | 0]!)}`
      : `/api/grower?page=${1 + ((i * 7919) % 500)}&limit=10`;
  return { method: 'GET' as const, path, headers: { authorization: who } };
}

async function closedLoop(
  label: string,
  base: string,
  seconds: number,
  next: () => { method: 'GET'; path: string; headers: Record<string, string> },
): Promise<Run> {
  const server0 = descendantsCpu();
  const client0 = ownCpuSeconds();
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 30,
    requests: [{ setupRequest: (req) => ({ ...req, ...next() }) }],
  });
  const serverCpu = Object.values(cpuBetween(server0, descendantsCpu())).reduce((x, y) => x + y, 0);
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([s, v]) => [s, v.count]),
  );
  const run: Run = {
    label,
    seconds: result.duration,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    serverCpu,
    clientCpu: ownCpuSeconds() - client0,
    statuses,
    errors: result.errors + result.timeouts,
  };
  process.stdout.write(
    `${label}: ${Math.round(run.requests / run.seconds)}/s, p50 ${run.p50} ms, p99 ${run.p99} ms,` +
      ` server CPU ${run.serverCpu.toFixed(1)} s, client CPU ${run.clientCpu.toFixed(1)} s,` +
      ` ${JSON.stringify(statuses)}${run.errors ? `, ${run.errors} errors` : ''}\n`,
  );
  return run;
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  let postgres: EmbeddedPostgresHandle | undefined;
  let adminUrl = env.BENCH_DATABASE_URL;
  if (!adminUrl) {
    postgres = await startEmbeddedPostgres({
      dataDir: path.join(os.tmpdir(), `filiere-bench-actors-${process.pid}`),
      ephemeral: true,
    });
    adminUrl = postgres.url;
  }
  const name = 'bench_actors';
  await withAdmin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  const databaseUrl = withDatabase(adminUrl, name);
  const db = createDb<Database>(databaseUrl, { max: 5, applicationName: 'bench' });
  const runs: Run[] = [];
  let pgVersion = '';
  try {
    await migrateToLatest(db, allMigrations);
    pgVersion = (
      await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db)
    ).rows[0]!.v;
    const auth = await seed(db);
    const api = await startApi(databaseUrl);
    try {
      runs.push(
        await closedLoop('HTTP ceiling (JWT verify, 200)', api.base, CEILING_SECONDS, () => ({
          method: 'GET',
          path: '/api/bench/ping',
          headers: { authorization: auth.manager },
        })),
      );
      let i = 0;
      runs.push(
        await closedLoop('GET /api/grower (search or page, limit 10)', api.base, SECONDS, () =>
          listRequest(auth, i++),
        ),
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
  const rate = (r: Run) => Math.round(r.requests / r.seconds);
  const cpus = os.cpus();
  await writeBenchmarkSection('## Actors: growers list', [
    '## Actors: growers list',
    '',
    `\`npm run bench:actors\`, ${new Date().toISOString().slice(0, 10)}: ${GROWERS.toLocaleString('en')} growers with ${PLOTS.toLocaleString('en')} plots,` +
      ` the list call as the screen makes it (\`GET /api/grower?page&limit=10&q\`: half searching a name, a phone or a reference, half paging;` +
      ` a cluster manager — half of the growers — and the super admin — all), ${CONNECTIONS} closed-loop connections,` +
      ` one API process, ${pgVersion ? `PostgreSQL ${pgVersion}` : 'PostgreSQL'}${postgres ? ' (embedded)' : ''}.`,
    `Machine: ${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB; shared with other work while it ran (load average ${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after): the figures were taken under load.`,
    '',
    '| run | requests/s | p50 (ms) | p99 (ms) | server CPU (s) | server CPU per request (ms) | answers |',
    '|---|---|---|---|---|---|---|',
    ...runs.map(
      (r) =>
        `| ${r.label} | ${rate(r)} | ${r.p50} | ${r.p99} | ${r.serverCpu.toFixed(1)} | ${((1000 * r.serverCpu) / Math.max(1, r.requests)).toFixed(1)} | ${Object.entries(
          r.statuses,
        )
          .map(([s, n]) => `${n} × ${s}`)
          .join(', ')}${r.errors ? `, ${r.errors} errors` : ''} |`,
    ),
    '',
    'The search reads one trigram-indexed column (`growers.search`: reference, names without accents, phone digits, kept by triggers); a page is the newest first within the reach (partial indexes of the active growers: `growers_cluster_active_idx`, `growers_active_idx`), each row with its plots summed; the count runs on the same filter. Target p99 ≤ 50 ms: with 2 cores as loaded as this run’s, even the ceiling misses it; the server CPU per request (API and PostgreSQL) is the figure that carries to an idle machine.',
    '',
  ]);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
