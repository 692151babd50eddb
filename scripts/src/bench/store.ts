import { writeBenchmarkSection } from './report.js';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import {
  CommandPipeline,
  EventCatalogue,
  EventStore,
  type EventStoreTables,
  canonicalJson,
  defineEvent,
  eventHash,
  eventStoreMigrations,
  GENESIS_HASH,
  type StreamType,
} from '@filiere/event-store';
import {
  createDb,
  migrateToLatest,
  startEmbeddedPostgres,
  withDatabase,
  type EmbeddedPostgresHandle,
} from '@filiere/platform';
import { withAdmin } from '@filiere/platform/testing';

/**
 * `npm run bench:store`: on one PostgreSQL (BENCH_DATABASE_URL, a superuser
 * URL, or an embedded one with default durability settings), measures
 * (a) the ceiling: raw multi-row INSERT … SELECT unnest(…) of the same rows,
 * (b) our command pipeline with 1, 64 and 1,024 concurrent callers,
 * (c) @event-driven-io/emmett-postgresql appending the same events with the same
 * concurrency, in a separate database. Prints the figures and rewrites the
 * "## Event store" section of docs/benchmarks.md.
 */
const STREAMS = 10_000;
const CONCURRENCY = [1, 64, 1024];
const OURS = { 1: 3_000, 64: 40_000, 1024: 100_000 } as Record<number, number>;
const EMMETT = { 1: 2_000, 64: 10_000, 1024: 10_000 } as Record<number, number>;
const CEILING_ROWS = 100_000;
const CEILING_BATCH = 1024;

const Credited = defineEvent({
  type: 'bench.Credited',
  version: 1,
  schema: z.object({ amount: z.number().int().positive() }),
});
const accountType: StreamType<{ balance: number }> = {
  category: 'account',
  initialState: () => ({ balance: 0 }),
  evolve: (state, event) => ({ balance: state.balance + (event.data.amount as number) }),
};

interface Figures {
  label: string;
  concurrency: number | string;
  events: number;
  seconds: number;
  p50: number;
  p99: number;
}

const streamOf = (i: number) => `account-${(i * 7919) % STREAMS}`;
const amountOf = (i: number) => (i % 1000) + 1;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs `total` calls of `call(i)` with `concurrency` callers; per-call latencies in ms. */
async function drive(
  label: string,
  concurrency: number,
  total: number,
  call: (i: number) => Promise<unknown>,
): Promise<Figures> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < total; i = next++) {
        const t = performance.now();
        await call(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const figures = {
    label,
    concurrency,
    events: total,
    seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
  print(figures);
  return figures;
}

function print(f: Figures): void {
  const rate = Math.round(f.events / f.seconds);
  process.stdout.write(
    `${f.label.padEnd(28)} c=${String(f.concurrency).padEnd(5)} ${String(rate).padStart(8)} events/s` +
      `  p50 ${f.p50.toFixed(2)} ms  p99 ${f.p99.toFixed(2)} ms  (${f.events} events)\n`,
  );
}

async function ceiling(db: Kysely<EventStoreTables>): Promise<Figures> {
  await sql`create table events_ceiling (like events including all)`.execute(db);
  // The same rows our store writes: canonical JSON, hash chain, per-stream versions.
  const versions = new Map<string, number>();
  let previous = GENESIS_HASH;
  const rows = Array.from({ length: CEILING_ROWS }, (_, i) => {
    const streamId = streamOf(i);
    const version = (versions.get(streamId) ?? 0) + 1;
    versions.set(streamId, version);
    const event = {
      position: i + 1,
      streamId,
      version,
      type: Credited.type,
      schemaVersion: 1,
      data: { amount: amountOf(i) },
      metadata: {},
    };
    previous = eventHash(previous, event);
    return { ...event, hash: previous };
  });
  const latencies: number[] = [];
  const started = performance.now();
  for (let offset = 0; offset < rows.length; offset += CEILING_BATCH) {
    const batch = rows.slice(offset, offset + CEILING_BATCH);
    const t = performance.now();
    await sql`
      insert into events_ceiling (position, stream_id, version, type, schema_version, data, metadata, hash)
      select * from unnest(${batch.map((r) => r.position)}::bigint[], ${batch.map((r) => r.streamId)}::text[],
        ${batch.map((r) => r.version)}::integer[], ${batch.map((r) => r.type)}::text[],
        ${batch.map((r) => r.schemaVersion)}::integer[], ${batch.map((r) => canonicalJson(r.data))}::jsonb[],
        ${batch.map((r) => canonicalJson(r.metadata))}::jsonb[], ${batch.map((r) => r.hash)}::text[])`.execute(
      db,
    );
    latencies.push(performance.now() - t);
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const figures: Figures = {
    label: `(a) raw INSERT unnest ×${CEILING_BATCH}`,
    concurrency: '1',
    events: rows.length,
    seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
  print(figures);
  return figures;
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  let postgres: EmbeddedPostgresHandle | undefined;
  let adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) {
    postgres = await startEmbeddedPostgres({
      dataDir: path.join(os.tmpdir(), `filiere-bench-${process.pid}`),
      ephemeral: true,
    });
    adminUrl = postgres.url;
  }
  const ours = 'bench_filiere';
  const theirs = 'bench_emmett';
  await withAdmin(adminUrl, async (client) => {
    for (const name of [ours, theirs]) {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${name}"`);
    }
  });
  const db = createDb<EventStoreTables>(withDatabase(adminUrl, ours), {
    max: 4,
    applicationName: 'bench',
  });
  const emmett = getPostgreSQLEventStore(withDatabase(adminUrl, theirs));
  const results: Figures[] = [];
  let pgVersion = '';
  try {
    await migrateToLatest(db, eventStoreMigrations);
    pgVersion = (
      await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db)
    ).rows[0]!.v;
    results.push(await ceiling(db));

    const store = new EventStore(db, new EventCatalogue([Credited]));
    for (const c of CONCURRENCY) {
      const pipeline = new CommandPipeline(store, { batchMax: 1024, batchWaitMs: 1 });
      pipeline.registerStreamType(accountType);
      const base = (await store.headPosition()) + 1_000_000 * c;
      results.push(
        await drive('(b) command pipeline', c, OURS[c]!, (i) =>
          pipeline.handle({
            streams: [streamOf(base + i)],
            decide: () => ({
              writes: [
                {
                  streamId: streamOf(base + i),
                  events: [Credited.create({ amount: amountOf(i) })],
                },
              ],
              result: null,
            }),
          }),
        ),
      );
      await pipeline.close();
    }

    await emmett.schema.migrate();
    for (const c of CONCURRENCY) {
      results.push(
        await drive('(c) emmett-postgresql', c, EMMETT[c]!, (i) =>
          emmett.appendToStream(streamOf(1_000_000 * c + i), [
            { type: 'Credited', data: { amount: amountOf(i) } },
          ]),
        ),
      );
    }
  } finally {
    await emmett.close().catch(() => undefined);
    await db.destroy();
    await withAdmin(adminUrl, async (client) => {
      for (const name of [ours, theirs]) {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }
    }).catch(() => undefined);
    await postgres?.stop();
  }
  await writeSection(results, pgVersion, !process.env.BENCH_DATABASE_URL, [
    loadBefore,
    os.loadavg()[0]!,
  ]);
}

async function writeSection(
  results: Figures[],
  pgVersion: string,
  embedded: boolean,
  load: number[],
) {
  const rate = (f: Figures) => Math.round(f.events / f.seconds);
  const at = (label: string, c: number) =>
    results.find((r) => r.label.startsWith(label) && r.concurrency === c)!;
  const a = rate(results[0]!);
  const b = rate(at('(b)', 1024));
  const cc = rate(at('(c)', 1024));
  const lines = [
    '## Event store',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:store\`` +
      ` on ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version},` +
      ` PostgreSQL ${pgVersion}${embedded ? ' (embedded, default durability: fsync and synchronous_commit on)' : ''};` +
      ` load average ${load.map((l) => l.toFixed(1)).join(' → ')} (start → end; the machine is shared).`,
    `One event per command on ${STREAMS.toLocaleString('en')} streams; pipeline batch max 1,024,` +
      ' wait 1 ms; latency is per call (per INSERT for the ceiling).',
    '',
    '| Run | Callers | Events | Events/s | p50 (ms) | p99 (ms) |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(
      (f) =>
        `| ${f.label} | ${f.concurrency} | ${f.events} | ${rate(f)} | ${f.p50.toFixed(2)} | ${f.p99.toFixed(2)} |`,
    ),
    '',
    `At 1,024 callers the pipeline reaches ${Math.round((100 * b) / a)} % of the raw-insert ceiling` +
      ` (target ≥ 50 %) and ${(b / cc).toFixed(1)}× emmett-postgresql (target ≥ 5×).`,
    '',
  ];
  await writeBenchmarkSection('## Event store', lines);
}

await main();
process.exit(0);
