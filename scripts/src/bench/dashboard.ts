import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, openSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import getPort from 'get-port';
import { PostgresDialect, Kysely, sql, type CompiledQuery } from 'kysely';
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
import { createSms, userLoader } from '@filiere/api/identity';
import type { StreamState } from '@filiere/event-store';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import {
  beninDay,
  createLogger,
  createPool,
  migrateToLatest,
  narrowDb,
  parseConfig,
  startEmbeddedPostgres,
  withDatabase,
  type EmbeddedPostgresHandle,
} from '@filiere/platform';
import { withAdmin } from '@filiere/platform/testing';
import { ProviderStub } from '../torture/provider-stub.js';
import { writeBenchmarkSection } from './report.js';

/**
 * `npm run bench:dashboard`: a ledger of BENCH_EVENTS events (default 1,000,000)
 * — BENCH_AGGREGATORS aggregators in 4 clusters buying from BENCH_GROWERS growers over a
 * year: bank supplies funding the aggregators, debts opened (input advances, pineapple
 * advances, social financings to an SFD), delivery contracts created (hold), confirmed,
 * delivered and settled (debts netted, the grower credited and paid out) — loaded through the
 * product's commands and run in this process (DeliveryContractCommands, ContractSettler,
 * openDebt through the pipeline; supplies through app.inject), in rounds of BENCH_ROUND
 * contracts (2,000) spread over BENCH_ROUND_DAYS (8) business days of the past year (the
 * commands' clocks; the log's recorded_at is the real instant, which the store sets),
 * BENCH_SETUP_CONCURRENCY (256) commands at once. Loading stops at BENCH_EVENTS or after
 * BENCH_LOAD_SECONDS (default 450, so that the whole bench stays within about 12 minutes),
 * whichever first; the projectors follow the log in BENCH_FOLLOWERS (2) background loops,
 * each round's debts are opened one round ahead so that its settlement only waits for
 * grower_debts to show them, and every projector catches the rest up at the end. Then the API
 * starts in its own process (wallet-server.ts, as bench:wallet) and pays the year's payouts
 * through a local FedaPay stub (BENCH_DRAIN_SECONDS at most) before anything is measured; then, against it,
 * closed loops of BENCH_CONNECTIONS clients for BENCH_SECONDS each: the HTTP+JWT ceiling
 * (`GET /api/bench/ping`), `GET /api/contracts/stats` (last year) as the super admin and as
 * one aggregator, and `GET /api/wallet/:id/balance?at=` of the aggregators' wallets (the
 * longest histories) at random instants of the load. Rewrites the "## Dashboard and
 * point-in-time balance" section of docs/benchmarks.md (not with BENCH_DRY=1).
 */
const env = process.env;
const EVENTS = Number(env.BENCH_EVENTS ?? 1_000_000);
const LOAD_SECONDS = Number(env.BENCH_LOAD_SECONDS ?? 450);
const AGGREGATORS = Number(env.BENCH_AGGREGATORS ?? 20);
const GROWERS = Number(env.BENCH_GROWERS ?? 5_000);
const ROUND = Number(env.BENCH_ROUND ?? 2_000);
/** Business days per round: a round's contracts are spread over this many days of the year. */
const ROUND_DAYS = Number(env.BENCH_ROUND_DAYS ?? 8);
const CONCURRENCY = Number(env.BENCH_SETUP_CONCURRENCY ?? 256);
/** Background loops catching the projectors up during the load (0: only at the end). */
const FOLLOWERS = Number(env.BENCH_FOLLOWERS ?? 2);
const SECONDS = Number(env.BENCH_SECONDS ?? 30);
const CEILING_SECONDS = Number(env.BENCH_CEILING_SECONDS ?? SECONDS);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 16);
const CLUSTERS = 4;
/** Longest wait for the year's payouts to be paid before the measure. */
const DRAIN_SECONDS = Number(env.BENCH_DRAIN_SECONDS ?? 1_200);
const TARGET_P99_MS = 50;
const JWT_SECRET = 'bench-dashboard-secret-0123456789-abcdefghijklm';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const serverScript = path.join(root, 'scripts/src/bench/wallet-server.ts');
/** The section's closing text (why the figures are what they are, the next limit), kept beside the bench. */
const NOTES = path.join(root, 'scripts/src/bench/dashboard-notes.md');
const write = (line: string) => process.stdout.write(`${line}\n`);
const DAY_MS = 86_400_000;
/** The stats' range in every request: the last year. */
const statsPath = () =>
  `/api/contracts/stats?from=${beninDay(new Date(Date.now() - 365 * DAY_MS))}` +
  `&to=${beninDay(new Date())}`;

/** The statements the bench's app sends while `on` (to EXPLAIN the stats' statements). */
const captured = { on: false, queries: [] as CompiledQuery[] };

/**
 * After the load, in this process: each measured route asked 30 times one after another
 * (one client, no HTTP socket: app.inject), its p50; then EXPLAIN ANALYZE of each statement
 * a stats request sends (full plans with BENCH_EXPLAIN=1, else each plan's top line).
 */
async function probe(
  app: Awaited<ReturnType<typeof buildApp>>,
  pool: ReturnType<typeof createPool>,
  routes: { label: string; url: () => string; authorization: string }[],
): Promise<string[]> {
  const out: string[] = [];
  for (const r of routes) {
    const ask = async () => {
      const t = performance.now();
      const res = await app.inject({
        method: 'GET',
        url: r.url(),
        headers: { authorization: r.authorization },
      });
      if (res.statusCode !== 200) throw new Error(`${r.label}: ${res.statusCode} ${res.body}`);
      return performance.now() - t;
    };
    // The first request computes the answer (the stats cache keeps it while the projection
    // stands still): its statements are captured and explained.
    captured.queries = [];
    captured.on = true;
    const first = await ask();
    captured.on = false;
    const times: number[] = [];
    for (let i = 0; i < 30; i++) times.push(await ask());
    times.sort((a, b) => a - b);
    out.push(
      `one client, in process: ${r.label} first ${first.toFixed(1)} ms (${captured.queries.length}` +
        ` statements), then p50 ${times[15]!.toFixed(1)} ms`,
    );
    for (const q of captured.queries.filter((c) => /dashboard_/.test(c.sql))) {
      const plan = (
        await pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${q.sql}`, [
          ...q.parameters,
        ])
      ).rows.map((row) => row['QUERY PLAN']);
      const from = /from "(dashboard_\w+)"/.exec(q.sql)?.[1] ?? '?';
      out.push(`  ${r.label}, ${from}: ${plan[0]!.trim()} | ${plan.at(-1)!.trim()}`);
      if (env.BENCH_EXPLAIN) out.push(...plan.map((line) => `      ${line}`));
    }
  }
  for (const line of out) write(line);
  return out;
}

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
  finalProjectSeconds: number;
  phases: Record<string, number>;
  probes: string[];
}

/** Users, growers, plots, then rounds of debts and contracts until EVENTS or LOAD_SECONDS. */
async function load(db: Kysely<Database>, pgPool: ReturnType<typeof createPool>): Promise<Loaded> {
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
    // Funds per aggregator for some rounds at a time (its share of the holds, with a margin),
    // one supply within the command ceiling.
    const perRound = (ROUND * 150_000) / AGGREGATORS;
    const roundsPerSupply = Math.max(
      1,
      Math.min(10, Math.floor(app.deps.config.MAX_COMMAND_AMOUNT / perRound)),
    );
    const perSupply = Math.min(
      app.deps.config.MAX_COMMAND_AMOUNT,
      Math.ceil((roundsPerSupply * perRound) / 1_000) * 1_000,
    );
    const phases: Record<string, number> = { supplies: 0, debts: 0, contracts: 0, settle: 0 };
    const timed = async (phase: string, run: () => Promise<unknown>) => {
      const t = Date.now();
      await run();
      phases[phase] = (phases[phase] ?? 0) + (Date.now() - t) / 1000;
    };
    // The settler reads its debts from `contracts`' grower_debts: only that projector catches
    // up before each round's settlement; every projector catches up once at the end.
    const debtsProjector = product.projectors.find((p) => p.tables.includes('grower_debts'))!;
    // Meanwhile the projectors follow the log in the background, as the API's in-process
    // loops do: their statements' round trips overlap the commands' instead of adding to them.
    const follow = { stop: false, ms: 0 };
    // grower_debts' projector has a loop of its own: each round's settlement waits for it.
    const others = product.projectors.filter((p) => p !== debtsProjector);
    const groups = FOLLOWERS
      ? [
          [debtsProjector],
          ...Array.from({ length: FOLLOWERS }, (_, f) =>
            others.filter((_, i) => i % FOLLOWERS === f),
          ),
        ]
      : [];
    const followers = groups.map(async (mine) => {
      while (!follow.stop) {
        let read = 0;
        for (const projector of mine) {
          read += (await catchUp(db, projector, { decode, batchSize: 2_000, maxBatches: 2 })).read;
        }
        if (!read) await new Promise((r) => setTimeout(r, 100));
      }
    });
    const dayCount = 350;
    // Round r's business days: slots of a permutation of the year's first 350 days, so that any
    // prefix of rounds spreads over the whole year; contract k is on slot k % ROUND_DAYS.
    const dayOfRound = (r: number, slot: number) =>
      yearAgo + (((r * ROUND_DAYS + slot) * 137) % dayCount) * DAY_MS + 8 * 3_600_000;
    const slotOf = (k: number) => k % ROUND_DAYS;
    const growerOfRound = (r: number, k: number) => growers[(r * ROUND + k) % GROWERS]!;
    const aggregatorOfRound = (r: number, k: number) =>
      aggregators[((r * ROUND + k) % GROWERS) % AGGREGATORS]!;
    /** A third of round r's growers owe a debt opened ten days before their contract. */
    const openDebts = (r: number) =>
      timed('debts', () =>
        pool(Math.ceil(ROUND / 3), CONCURRENCY, async (j) => {
          const k = j * 3;
          const kind = DEBT_KINDS[(j + r) % 3]!;
          const debtId = randomUUID();
          const stream = debtStreamId(debtId);
          const creditorUserId = kind === 'FINANCEMENT_SOCIAL' ? sfdId : aggregatorOfRound(r, k).id;
          const opened = new Date(dayOfRound(r, slotOf(k)) - 10 * DAY_MS).toISOString();
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
                  debtorGrowerId: growerOfRound(r, k).id,
                  principal: 5_000 + ((k + r) % 30) * 1_000,
                },
                { now: opened },
              )) as never,
          });
          debts++;
        }),
      ).then(() => head(db));
    /** Waits until grower_debts shows every event up to `position` (the followers move it). */
    const debtsShown = async (position: number) => {
      const t = Date.now();
      if (!FOLLOWERS) await catchUp(db, debtsProjector, { decode, batchSize: 5_000 });
      for (;;) {
        const row = await sql<{ p: string }>`select position as p from projection_checkpoints
          where name = ${debtsProjector.name}`.execute(db);
        if (Number(row.rows[0]?.p ?? 0) >= position) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      projectMs += Date.now() - t;
    };
    // Each round's debts are opened one round ahead, so the projectors have a round's time to
    // show them before that round settles.
    let debtsOfThisRound = await openDebts(0);
    while (events < EVENTS && (Date.now() - started) / 1000 < LOAD_SECONDS) {
      const r = rounds++;
      const dayOf = (slot: number) => dayOfRound(r, slot);
      const at = (slot: number, offsetDays: number) => () =>
        new Date(dayOf(slot) + offsetDays * DAY_MS);
      if (r % roundsPerSupply === 0) {
        await timed('supplies', () =>
          pool(AGGREGATORS, 8, (a) => supply(aggregators[a]!, perSupply)),
        );
      }
      const growerOf = (k: number) => growerOfRound(r, k);
      const aggregatorOf = (k: number) => aggregatorOfRound(r, k);
      const debtsOfNextRound = await openDebts(r + 1);
      // The contracts: created on their day, confirmed the next, delivered two days after.
      const commandsOn = (offsetDays: number) =>
        Array.from(
          { length: ROUND_DAYS },
          (_, slot) =>
            new DeliveryContractCommands(
              contractsDb,
              app.commands,
              at(slot, offsetDays),
              createSms(config, db, createLogger('silent', false)),
            ),
        );
      const [create, confirm, deliver] = [commandsOn(0), commandsOn(1), commandsOn(3)];
      const ids: { id: string; slot: number }[] = [];
      await timed('contracts', () =>
        pool(ROUND, CONCURRENCY, async (k) => {
          const grower = growerOf(k);
          const aggregator = aggregatorOf(k);
          const slot = slotOf(k);
          const { contractId } = await create[slot]!.create(aggregator, {
            growerId: grower.id,
            productId: grower.plot,
            quantity: 2,
            amount: amountOf(r * ROUND + k),
          });
          const growerUser = {
            ...aggregator,
            id: grower.user_id,
            role_code: 'ROLE_GROWER' as const,
          };
          await confirm[slot]!.confirm(growerUser, contractId);
          // Nine contracts in ten are delivered; the rest wait (the dashboard's waiting cards).
          if (k % 10 !== 9) {
            const deliveredOn = new Date(dayOf(slot) + 3 * DAY_MS).toISOString().slice(0, 10);
            await deliver[slot]!.recordDelivery(aggregator, contractId, {
              quantity: 2,
              deliveredOn,
            });
            ids.push({ id: contractId, slot });
          }
          contracts++;
        }),
      );
      // grower_debts shows this round's debts (the settler nets the debts it shows), then the run settles
      // each day's contracts on that day + 5.
      await debtsShown(debtsOfThisRound);
      debtsOfThisRound = debtsOfNextRound;
      await timed('settle', async () => {
        const settlers = Array.from(
          { length: ROUND_DAYS },
          (_, slot) => new ContractSettler(settleDb, app.commands, { clock: at(slot, 5) }),
        );
        const bySlot = new Map<number, string[]>();
        for (const { id, slot } of ids) bySlot.set(slot, [...(bySlot.get(slot) ?? []), id]);
        const chunks = [...bySlot].flatMap(([slot, list]) =>
          Array.from({ length: Math.ceil(list.length / 200) }, (_, c) => ({
            slot,
            ids: list.slice(c * 200, c * 200 + 200),
          })),
        );
        await pool(chunks.length, 4, async (c) => {
          const chunk = chunks[c]!;
          for (const settled of await settlers[chunk.slot]!.settleMany(chunk.ids)) {
            if ('error' in settled) throw settled.error;
          }
        });
      });
      events = await head(db);
      if (r % 2 === 0) {
        const s = (Date.now() - started) / 1000;
        write(
          `round ${r}: ${events} events, ${contracts} contracts, ${debts} debts, ${s.toFixed(0)} s` +
            ` (${Math.round(events / s)} events/s; ${Object.entries(phases)
              .map(([p, x]) => `${p} ${x.toFixed(0)} s`)
              .join(', ')}, grower_debts ${(projectMs / 1000).toFixed(0)} s)`,
        );
      }
    }
    follow.stop = true;
    await Promise.all(followers);
    // Every projector catches up the rest, all at once (each on its own connection).
    const t = Date.now();
    await Promise.all(
      product.projectors.map((projector) => catchUp(db, projector, { decode, batchSize: 5_000 })),
    );
    const finalProjectMs = Date.now() - t;
    write(`projectors caught up in ${(finalProjectMs / 1000).toFixed(0)} s`);
    await sql`analyze`.execute(db);
    const wallets = aggregators.map((a) => a.wallet_id!);
    let w = 0;
    const probes = await probe(app, pgPool, [
      { label: 'stats super admin', url: statsPath, authorization: superAuth },
      { label: 'stats aggregator', url: statsPath, authorization: authOf(aggregators[0]!) },
      {
        label: 'balance?at',
        url: () => {
          const at = new Date(
            Date.parse(firstAt) + Math.random() * (Date.now() - Date.parse(firstAt)),
          );
          return `/api/wallet/${wallets[w++ % wallets.length]}/balance?at=${encodeURIComponent(at.toISOString())}`;
        },
        authorization: superAuth,
      },
    ]);
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
      projectSeconds: (projectMs + finalProjectMs) / 1000,
      finalProjectSeconds: finalProjectMs / 1000,
      phases,
      probes,
    };
  } finally {
    await app.close();
  }
}

/** Starts the API (wallet-server.ts) in its own process; resolves once it listens. */
async function startApi(databaseUrl: string, providerUrl: string) {
  const port = await getPort();
  const child = fork(serverScript, [], {
    // BENCH_API_NODE_ARGS: extra node flags for the API, e.g. --cpu-prof (as bench:contracts).
    execArgv: ['--import', 'tsx', ...(env.BENCH_API_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
    env: {
      ...env,
      NODE_ENV: 'production',
      PAYMENT_PROVIDER: 'fedapay',
      FEDAPAY_BASE_URL: providerUrl,
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

interface Drain {
  settled: number;
  seconds: number;
}

/**
 * Waits until every withdrawal of the log has its outcome (WithdrawalCompleted or
 * WithdrawalFailed), i.e. the API's payout jobs have paid them all; throws after DRAIN_SECONDS.
 */
async function drainPayouts(db: Kysely<Database>): Promise<Drain> {
  const t0 = Date.now();
  let lastLog = t0;
  for (;;) {
    const row = (
      await sql<{ requested: string; settled: string }>`
        select count(*) filter (where type = 'WithdrawalRequested') as requested,
               count(*) filter (where type <> 'WithdrawalRequested') as settled
        from events
        where type in ('WithdrawalRequested', 'WithdrawalCompleted', 'WithdrawalFailed')`.execute(
        db,
      )
    ).rows[0]!;
    const [requested, settled] = [Number(row.requested), Number(row.settled)];
    const seconds = (Date.now() - t0) / 1000;
    if (settled >= requested) return { settled, seconds };
    if (seconds > DRAIN_SECONDS)
      throw new Error(`payouts not settled after ${DRAIN_SECONDS} s: ${settled} of ${requested}`);
    if (Date.now() - lastLog > 15_000) {
      lastLog = Date.now();
      write(`  ${seconds.toFixed(0)} s: ${settled} of ${requested} payouts settled`);
    }
    await new Promise((r) => setTimeout(r, 2_000));
  }
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
  const pool = createPool(databaseUrl, { max: 20, applicationName: 'bench' });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (e) => void (captured.on && e.level === 'query' && captured.queries.push(e.query)),
  });
  const runs: Run[] = [];
  let loaded: Loaded;
  let pgVersion = '';
  let tables = '';
  let loadAtRun = 0;
  let drain: Drain = { settled: 0, seconds: 0 };
  try {
    await migrateToLatest(db, allMigrations);
    pgVersion = (
      await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db)
    ).rows[0]!.v;
    loaded = await load(db, pool);
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
    // The year's payouts are paid before the measure, as they would be a year on: the API pays
    // the withdrawals the settlements requested (its payout jobs, recovered from the ledger at
    // its start) through a local FedaPay stub. Measured with them pending, the API spent its
    // time retrying 90,000 payouts against an unreachable provider (12 % of its CPU in the
    // payout runner, a quarter in socket writes), and the ceiling fell to 354 requests/s.
    const stub = new ProviderStub();
    const api = await startApi(databaseUrl, await stub.start());
    try {
      drain = await drainPayouts(db);
      write(
        `payouts of the year settled by the API through the provider stub: ${drain.settled} in ${drain.seconds.toFixed(0)} s (${stub.payouts.size} created at the stub)`,
      );
      loadAtRun = os.loadavg()[0]!;
      const stats = statsPath();
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
      // Every request a range of its own (1 to 365 days ending in the past year), so that no
      // kept answer serves it: what each request costs when the projection moves between any
      // two of them (a steady write load), the kept answers' worst case.
      runs.push(
        await closedLoop(
          'GET /api/contracts/stats, super admin, a new range each request (no kept answer)',
          api.base,
          SECONDS,
          () => {
            const to = Date.now() - Math.floor(Math.random() * 365) * DAY_MS;
            const from = to - Math.floor(Math.random() * 365) * DAY_MS;
            const day = (t: number) => new Date(t).toISOString().slice(0, 10);
            return {
              path: `/api/contracts/stats?from=${day(from)}&to=${day(to)}`,
              authorization: l.superAuth,
            };
          },
        ),
      );
    } finally {
      await api.stop();
      await stub.stop();
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
    drain,
  });
}

async function writeSection(
  l: Loaded,
  runs: Run[],
  m: { pgVersion: string; tables: string; load: number[]; drain: Drain },
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
      (m.load[0]! < 1.5
        ? ' the machine was otherwise idle.'
        : ' the machine was shared with other engineers running their tests, so every figure is a floor.'),
    '',
    `The ledger: **${l.events.toLocaleString('en-US')} events** (target ${EVENTS.toLocaleString('en-US')}` +
      `${l.events < EVENTS ? `, not reached: loading stopped after ${LOAD_SECONDS} s` : ''}) —` +
      ` ${AGGREGATORS} aggregators in ${CLUSTERS} clusters, ${GROWERS.toLocaleString('en-US')} growers,` +
      ` ${l.contracts.toLocaleString('en-US')} delivery contracts (created, confirmed, nine in ten delivered and settled` +
      ` with their debts netted and the grower paid out), ${l.debts.toLocaleString('en-US')} debts, bank supplies —` +
      ` loaded through the product's commands in this process in ${l.rounds} rounds of ${ROUND.toLocaleString('en-US')}` +
      ` contracts spread over ${ROUND_DAYS} business days of the past year (the commands' clocks; the log's recorded_at is` +
      ` the real instant), ${CONCURRENCY} commands at once; the projectors followed the log in ${FOLLOWERS} background` +
      ` loops, each round's debts opened one round ahead and the settlement waiting only for grower_debts to show them.` +
      ` Load rate ${Math.round(l.events / l.seconds)} events/s (${l.seconds.toFixed(0)} s in all: ${Object.entries(
        l.phases,
      )
        .map(([p, x]) => `${p} ${x.toFixed(0)} s`)
        .join(
          ', ',
        )}, waiting for grower_debts and the last catch-up ${l.projectSeconds.toFixed(0)} s of which the` +
      ` last ${l.finalProjectSeconds.toFixed(0)} s), so` +
      ` ${EVENTS.toLocaleString('en-US')} events take about ${Math.round(EVENTS / (l.events / l.seconds) / 60)} min here.` +
      ` Rows: ${m.tables}.`,
    '',
    'Measured in the bench process right after the load (one client, `app.inject`, no socket; EXPLAIN ANALYZE of' +
      ' each statement a stats request sends, its top plan line and execution time):',
    '',
    '```',
    ...l.probes,
    '```',
    '',
    `Then the API in its own process (wallet-server.ts, as bench:wallet), which first pays the year's payouts` +
      ` (its payout jobs, recovered from the ledger at its start, through a local FedaPay stub: ${m.drain.settled.toLocaleString('en-US')}` +
      ` withdrawals settled in ${m.drain.seconds.toFixed(0)} s), and ${CONNECTIONS} keep-alive clients` +
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
