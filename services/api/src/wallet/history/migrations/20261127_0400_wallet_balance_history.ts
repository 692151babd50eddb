import { sql, type Kysely } from 'kysely';

/**
 * `wallet_balance_history`: the balances of a wallet after each of its events (filled by the
 * `wallet-balance-history` projector). A point-in-time balance is one lookup on
 * (wallet_id, recorded_at, position): the last row recorded at or before the instant.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table wallet_balance_history (
    wallet_id text not null,
    position bigint not null,
    version integer not null,
    recorded_at timestamptz not null,
    type text not null,
    amount bigint not null,
    available_amount bigint not null,
    balance bigint not null,
    held bigint not null,
    available_balance bigint not null,
    opened boolean not null,
    opened_wallet_id text,
    reference text,
    primary key (wallet_id, position)
  )`.execute(db);
  await sql`create index wallet_balance_history_at
    on wallet_balance_history (wallet_id, recorded_at, position)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('wallet_balance_history').ifExists().execute();
}
