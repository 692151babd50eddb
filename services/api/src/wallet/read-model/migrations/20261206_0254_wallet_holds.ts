import { sql, type Kysely } from 'kysely';

/**
 * `wallet_holds`: what each hold of a wallet still keeps, with its HoldPlaced purpose and
 * instant (wallet-holds, read-model/holds.ts). A new projector: its checkpoint starts at 0,
 * so it fills from the whole log.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table wallet_holds (
    hold_id text not null,
    wallet_id text not null,
    held bigint not null,
    purpose text,
    placed_at timestamptz,
    primary key (hold_id, wallet_id)
  )`.execute(db);
  await sql`create index wallet_holds_active on wallet_holds (wallet_id, placed_at desc)
    where held > 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists wallet_holds`.execute(db);
}
