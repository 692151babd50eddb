import { sql, type Kysely } from 'kysely';

/**
 * The growers list's page indexes as partial indexes of the active growers (what every list
 * but the super admin's 'bannis' reads): `where deactivated_at is null` matches the query's
 * predicate, so a page and its count are index(-only) scans. The expression indexes of 0610
 * (`(deactivated_at is null)` as a column) could not serve an index-only count: the
 * expression's column is not in the index. Deactivated growers are few: their list scans.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index growers_cluster_page_idx`.execute(db);
  await sql`drop index growers_cooperative_page_idx`.execute(db);
  await sql`drop index growers_page_idx`.execute(db);
  await sql`create index growers_cluster_active_idx on growers
    (cluster_id, created_at desc, id desc) where deactivated_at is null`.execute(db);
  await sql`create index growers_cooperative_active_idx on growers
    (cooperative_id, created_at desc, id desc)
    where deactivated_at is null and cooperative_id is not null`.execute(db);
  await sql`create index growers_active_idx on growers (created_at desc, id desc)
    where deactivated_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index growers_active_idx`.execute(db);
  await sql`drop index growers_cooperative_active_idx`.execute(db);
  await sql`drop index growers_cluster_active_idx`.execute(db);
  await sql`create index growers_cluster_page_idx on growers
    (cluster_id, (deactivated_at is null), created_at desc, id desc)`.execute(db);
  await sql`create index growers_cooperative_page_idx on growers
    (cooperative_id, (deactivated_at is null), created_at desc, id desc)
    where cooperative_id is not null`.execute(db);
  await sql`create index growers_page_idx on growers
    ((deactivated_at is null), created_at desc, id desc)`.execute(db);
}
