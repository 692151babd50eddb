import { rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import {
  createDb,
  migrateToLatest,
  startEmbeddedPostgres,
  withDatabase,
  type EmbeddedPostgresHandle,
} from '@filiere/platform';
import { withAdmin } from '@filiere/platform/testing';
import { allMigrations } from '../../migrations.js';
import { transactionsPage } from '../queries/transactions.repository.js';
import { writeTransactionsXlsx } from './xlsx.js';

/**
 * Benchmark of the export (`npx tsx services/api/src/wallet/export/bench-export.ts`): on
 * BENCH_DATABASE_URL (superuser) or an embedded PostgreSQL, fills `wallet_transactions`
 * with BENCH_ROWS (1,000,000) rows of one wallet, then writes them as an .xlsx file the way
 * the background job does, and prints the time, the file size and the peak RSS.
 */
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
let postgres: EmbeddedPostgresHandle | undefined;
let adminUrl = process.env.BENCH_DATABASE_URL;
if (!adminUrl) {
  postgres = await startEmbeddedPostgres({
    dataDir: path.join(os.tmpdir(), `filiere-bench-export-${process.pid}`),
    ephemeral: true,
  });
  adminUrl = postgres.url;
}
const name = `bench_export_${process.pid}`;
await withAdmin(adminUrl, (c) => c.query(`create database "${name}"`));
const db = createDb(withDatabase(adminUrl, name), { max: 4, applicationName: 'bench-export' });
const file = path.join(os.tmpdir(), `bench-export-${process.pid}.xlsx`);
try {
  await migrateToLatest(db, allMigrations);
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
  await sql`analyze wallet_transactions`.execute(db);
  const r0 = performance.now();
  let read = 0;
  for (let after = 0; ;) {
    const page = await transactionsPage(db, 'w-bench', after, 5_000);
    read += page.length;
    if (page.length < 5_000) break;
    after = Number(page.at(-1)!.id);
  }
  const readSeconds = (performance.now() - r0) / 1000;
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const t0 = performance.now();
  const rssAt: string[] = [];
  const rows = await writeTransactionsXlsx(db, 'w-bench', { filename: file }, (done) => {
    if (done % (ROWS / 4) === 0)
      rssAt.push(`${done}: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)}`);
  });
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const size = (await stat(file)).size;
  console.log(
    `export of ${rows.toLocaleString('en')} transactions: ${seconds.toFixed(1)} s, ` +
      `${(size / 1e6).toFixed(1)} MB file, peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB ` +
      `(reading the ${read.toLocaleString('en')} rows alone: ${readSeconds.toFixed(1)} s; ` +
      `RSS MiB at rows ${rssAt.join(', ')}; Node ${process.version}, ${os.cpus().length} CPUs)`,
  );
} finally {
  await rm(file, { force: true });
  await db.destroy();
  await withAdmin(adminUrl, (c) => c.query(`drop database if exists "${name}"`));
  await postgres?.stop();
}
