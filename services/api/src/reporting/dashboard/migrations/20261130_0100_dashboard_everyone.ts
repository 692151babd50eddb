import { sql, type Kysely } from 'kysely';

/**
 * The super admin's dashboard (scope ALL) without summing every aggregator's rows per request:
 *
 * - dashboard_daily and dashboard_purchases get, beside each aggregator's rows (DELIVERY and
 *   CARRIAGE, side AGGREGATOR), rows of owner '' (EVERYONE): their sum over all aggregators at
 *   the same key. A year's ALL figures then read one owner's days × statuses (about 1,500
 *   rows) instead of aggregators × days × statuses (8.3 ms at 1,019,078 events, the slowest
 *   statement of an uncached super-admin answer). No owner id is '' (user and grower ids are
 *   uuids), so the scoped reads never see them.
 * - dashboard_debt_opened: input and other advances per creditor (and '' for everyone), kind
 *   and OPENING day: how many, principal, recovered so far — the `inputAdvance` card (debts
 *   opened in the range, with what has been recovered on them since) as a sum over days
 *   instead of a scan of every debt (7.4 ms over 34,017 debts for ALL).
 *
 * Written by the `reporting-dashboard` projector; the backfill computes the same rows from the
 * tables already projected, so a rebuild gives what this migration leaves.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`insert into dashboard_daily
      (owner_id, family, day, status, contracts, quantity_kg, amount, delivered_kg)
    select '', family, day, status, sum(contracts), sum(quantity_kg), sum(amount), sum(delivered_kg)
      from dashboard_daily where family in ('DELIVERY', 'CARRIAGE') and owner_id <> ''
      group by family, day, status`.execute(db);
  await sql`insert into dashboard_purchases
      (side, owner_id, day, contracts, delivered_kg, paid, grower_net)
    select 'AGGREGATOR', '', day, sum(contracts), sum(delivered_kg), sum(paid), sum(grower_net)
      from dashboard_purchases where side = 'AGGREGATOR' and owner_id <> ''
      group by day`.execute(db);
  await sql`create table dashboard_debt_opened (
    creditor_user_id text not null,
    kind text not null,
    opened_day text not null,
    debts integer not null,
    principal bigint not null,
    recovered bigint not null,
    primary key (creditor_user_id, kind, opened_day)
  )`.execute(db);
  await sql`insert into dashboard_debt_opened
      (creditor_user_id, kind, opened_day, debts, principal, recovered)
    select creditor_user_id, kind, opened_day, count(*), sum(principal), sum(recovered)
      from dashboard_debts group by creditor_user_id, kind, opened_day
    union all
    select '', kind, opened_day, count(*), sum(principal), sum(recovered)
      from dashboard_debts group by kind, opened_day`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists dashboard_debt_opened`.execute(db);
  await sql`delete from dashboard_purchases where side = 'AGGREGATOR' and owner_id = ''`.execute(
    db,
  );
  await sql`delete from dashboard_daily where owner_id = ''`.execute(db);
}
