import { sql, type Kysely } from 'kysely';

/**
 * The reporting board's read tables, filled by the `reporting-board` projector only (from the
 * growers area's and the wallet's events): a replay rebuilds the same rows. Names and phones
 * are identity's (joined at query time, as elsewhere); a user's cluster too.
 *
 * - board_growers: one row per grower: its user, cluster, reference, number of plots and
 *   'Superficie emblavée' (sum of the plots' areaSown) in ten-thousandths of a hectare;
 * - board_plots: each plot's area, so that a changed area moves the grower's sum;
 * - board_wallets: per wallet, its owner (WalletOpened) and the six transaction figures
 *   (withdrawals debited, supplies credited, transfers sent: counts and F CFA totals).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table board_growers (
    grower_id text primary key,
    user_id uuid not null,
    cluster_id uuid not null,
    reference text not null,
    plots integer not null default 0,
    area_sown_e4 bigint not null default 0
  )`.execute(db);
  await sql`create index board_growers_by_cluster on board_growers (cluster_id)`.execute(db);

  await sql`create table board_plots (
    plot_id text primary key,
    grower_id text not null,
    area_sown_e4 bigint not null
  )`.execute(db);

  await sql`create table board_wallets (
    wallet_id text primary key,
    user_id uuid,
    count_debit bigint not null default 0,
    total_debit bigint not null default 0,
    count_supplies bigint not null default 0,
    total_supplies bigint not null default 0,
    count_transfer bigint not null default 0,
    total_transfer bigint not null default 0
  )`.execute(db);
  await sql`create index board_wallets_by_user on board_wallets (user_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists board_wallets`.execute(db);
  await sql`drop table if exists board_plots`.execute(db);
  await sql`drop table if exists board_growers`.execute(db);
}
