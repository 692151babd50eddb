import { sql, type Kysely } from 'kysely';

/**
 * dashboard_debt_rollup: the growers' debt movements per day and kind WITHOUT the grower
 * dimension, for each scope the dashboard reads — ALL (scope_id ''), CLUSTER (the grower's
 * cluster) and AGGREGATOR (every aggregator the grower has contracted with, as
 * dashboard_aggregator_growers says): principal opened and amount recovered. The outstanding
 * debt cards and the monthly debt series then read one scope's rows (days × kinds, a few
 * hundred a year) instead of every grower's days (dashboard_debt_daily, which grows with
 * growers × days). Written by the `reporting-dashboard` projector; a rebuild gives the same
 * rows (each row is the sum of the scope's growers' dashboard_debt_daily rows at its day and
 * kind, whatever the batches), and the backfill below computes exactly that from the tables
 * already projected.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table dashboard_debt_rollup (
    scope text not null check (scope in ('ALL', 'CLUSTER', 'AGGREGATOR')),
    scope_id text not null,
    day text not null,
    kind text not null,
    opened bigint not null,
    recovered bigint not null,
    primary key (scope, scope_id, day, kind)
  )`.execute(db);
  await sql`insert into dashboard_debt_rollup (scope, scope_id, day, kind, opened, recovered)
    select 'ALL', '', day, kind, sum(opened), sum(recovered)
      from dashboard_debt_daily group by day, kind
    union all
    select 'CLUSTER', g.cluster_id, d.day, d.kind, sum(d.opened), sum(d.recovered)
      from dashboard_debt_daily d join dashboard_growers g on g.grower_id = d.grower_id
      where g.cluster_id is not null
      group by g.cluster_id, d.day, d.kind
    union all
    select 'AGGREGATOR', l.aggregator_user_id, d.day, d.kind, sum(d.opened), sum(d.recovered)
      from dashboard_debt_daily d
      join dashboard_aggregator_growers l on l.grower_id = d.grower_id
      group by l.aggregator_user_id, d.day, d.kind`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists dashboard_debt_rollup`.execute(db);
}
