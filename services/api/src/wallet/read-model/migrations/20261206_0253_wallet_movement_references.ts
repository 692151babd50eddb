import { sql, type Kysely } from 'kysely';

/**
 * Every movement shows one human reference (kernel/references.ts), derived by the
 * wallet-transactions and wallet-balance-history projectors from the events: their tables are
 * emptied and their checkpoints set back to 0, so they replay the log with the new references
 * (the live tables then equal a rebuild, as ledger:check requires). On a database whose
 * checkpoints do not exist yet there is nothing to replay.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`truncate wallet_transactions, wallet_monthly_counts, wallet_transaction_owners,
    wallet_hold_labels`.execute(db);
  await sql`do $$ begin
    if to_regclass('public.wallet_balance_history') is not null then
      truncate wallet_balance_history;
    end if;
    if to_regclass('public.projection_checkpoints') is not null then
      update projection_checkpoints set position = 0
        where name in ('wallet-transactions', 'wallet-balance-history');
    end if;
  end $$`.execute(db);
}

/** The old references come back by the same replay (the previous code's projectors). */
export async function down(db: Kysely<any>): Promise<void> {
  await up(db);
}
