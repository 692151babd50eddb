import { sql, type Kysely } from 'kysely';

/**
 * Drops the two trigram GIN indexes of `wallet_transactions` (reference, reason). No query can
 * use them: the list's search (`transactions.repository.ts`) ORs `reference` and `reason` with
 * the names of both sides, joined from `users`, and an OR across joined tables is a join
 * filter, never an index scan of one table (EXPLAIN: a scan of the wallet's rows or of the
 * table, with or without them). Yet they were half the cost of inserting a row: over the
 * 31,223 rows of a 10,000-contract run, about 0.7 PostgreSQL CPU-s of the projector's 2.3.
 *
 * Found by definition, not by name: after `ledger:rebuild` the live table's indexes are those
 * of its `like … including all` copy, named by PostgreSQL (`…_reference_idx`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`do $$
    declare r record;
    begin
      for r in
        select schemaname, indexname from pg_indexes
        where schemaname = current_schema() and tablename = 'wallet_transactions'
          and indexdef like '%USING gin%gin_trgm_ops%'
      loop
        execute format('drop index %I.%I', r.schemaname, r.indexname);
      end loop;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists wallet_transactions_reference_trgm on wallet_transactions
    using gin (reference gin_trgm_ops)`.execute(db);
  await sql`create index if not exists wallet_transactions_reason_trgm on wallet_transactions
    using gin (reason gin_trgm_ops)`.execute(db);
}
