import { sql, type Kysely } from 'kysely';

/**
 * The dashboard's read tables, filled by the `reporting-dashboard` projector only (from
 * the growers', contracts' and carriage's events): a replay rebuilds the same rows.
 * Days are Benin calendar days ('YYYY-MM-DD' text, from the events' own instants); money is
 * integer F CFA, quantities integer kg.
 *
 * - dashboard_growers: the projector's own copy of each grower's user, cluster and cooperative
 *   (from the growers area's events), for scoping and for the pushes. Staff users' roles and
 *   clusters are identity's state (the `users` table), joined at query time;
 * - dashboard_contracts: each delivery or carriage contract's creation day and current status,
 *   so that a transition moves its figures from one status row to the other;
 * - dashboard_daily: per owner (an aggregator's user id for DELIVERY and CARRIAGE, a grower's id
 *   for GROWER), per creation day and current status: contracts, kg, F CFA, delivered kg;
 * - dashboard_purchases: per aggregator (side AGGREGATOR) or grower (side GROWER) and settlement
 *   day: contracts settled, delivered kg, paid amount, growers' net;
 * - dashboard_debts: each grower debt (kind, creditor, principal, recovered so far);
 * - dashboard_debt_daily: per grower, creditor, kind and day: principal opened (and how many
 *   debts), amount recovered;
 * - dashboard_aggregator_growers: the growers an aggregator has contracted with (its
 *   producers, whose debts its debt cards show).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table dashboard_growers (
    grower_id text primary key,
    user_id text not null,
    cluster_id text,
    cooperative_id text
  )`.execute(db);
  await sql`create index dashboard_growers_by_cluster on dashboard_growers (cluster_id)`.execute(
    db,
  );
  await sql`create index dashboard_growers_by_cooperative on dashboard_growers (cooperative_id)`.execute(
    db,
  );
  await sql`create index dashboard_growers_by_user on dashboard_growers (user_id)`.execute(db);

  await sql`create table dashboard_contracts (
    contract_id text primary key,
    family text not null check (family in ('DELIVERY', 'CARRIAGE')),
    aggregator_user_id text not null,
    grower_id text,
    day text not null,
    status text not null,
    quantity_kg bigint not null default 0,
    amount bigint not null,
    delivered_kg bigint not null default 0
  )`.execute(db);

  await sql`create table dashboard_daily (
    owner_id text not null,
    family text not null check (family in ('DELIVERY', 'CARRIAGE', 'GROWER')),
    day text not null,
    status text not null,
    contracts integer not null,
    quantity_kg bigint not null,
    amount bigint not null,
    delivered_kg bigint not null,
    primary key (owner_id, family, day, status)
  )`.execute(db);
  await sql`create index dashboard_daily_by_day on dashboard_daily (family, day)`.execute(db);

  await sql`create table dashboard_purchases (
    side text not null check (side in ('AGGREGATOR', 'GROWER')),
    owner_id text not null,
    day text not null,
    contracts integer not null,
    delivered_kg bigint not null,
    paid bigint not null,
    grower_net bigint not null,
    primary key (side, owner_id, day)
  )`.execute(db);
  await sql`create index dashboard_purchases_by_day on dashboard_purchases (side, day)`.execute(db);

  await sql`create table dashboard_debts (
    debt_id text primary key,
    kind text not null,
    creditor_user_id text not null,
    grower_id text not null,
    principal bigint not null,
    recovered bigint not null default 0,
    opened_day text not null
  )`.execute(db);
  await sql`create index dashboard_debts_by_creditor on dashboard_debts (creditor_user_id, kind, opened_day)`.execute(
    db,
  );
  await sql`create index dashboard_debts_by_kind on dashboard_debts (kind, opened_day)`.execute(db);

  await sql`create table dashboard_debt_daily (
    grower_id text not null,
    creditor_user_id text not null,
    kind text not null,
    day text not null,
    opened bigint not null,
    opened_count integer not null,
    recovered bigint not null,
    primary key (grower_id, creditor_user_id, kind, day)
  )`.execute(db);
  await sql`create index dashboard_debt_daily_by_creditor on dashboard_debt_daily (creditor_user_id, day)`.execute(
    db,
  );
  await sql`create index dashboard_debt_daily_by_day on dashboard_debt_daily (day)`.execute(db);

  await sql`create table dashboard_aggregator_growers (
    aggregator_user_id text not null,
    grower_id text not null,
    primary key (aggregator_user_id, grower_id)
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'dashboard_aggregator_growers',
    'dashboard_debt_daily',
    'dashboard_debts',
    'dashboard_purchases',
    'dashboard_daily',
    'dashboard_contracts',
    'dashboard_growers',
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
