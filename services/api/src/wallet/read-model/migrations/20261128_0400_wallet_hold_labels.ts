import { sql, type Kysely } from 'kysely';

/**
 * `wallet_hold_labels`: each hold's purpose as its HoldPlaced event names it ('Contrat de
 * livraison CL-…', 'Contrat de transport …', 'Fournisseur d’intrant, saison …'), kept by
 * wallet-transactions so that the rows a hold pays show it as their reference instead of the
 * hold's id (`contract-<uuid>`). Backfilled from the log, and the rows projected before this
 * migration relabelled, so the live tables equal a rebuild (ledger:check).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table wallet_hold_labels (
    hold_id text primary key,
    label text not null
  )`.execute(db);
  await sql`insert into wallet_hold_labels (hold_id, label)
    select data->>'holdId', data->>'purpose' from events
    where type = 'HoldPlaced'
    order by position
    on conflict (hold_id) do nothing`.execute(db);
  await sql`update wallet_transactions t set reference = l.label
    from wallet_hold_labels l
    where t.reference = l.hold_id and (t.key like 'hold:%' or t.key like 'settlement:%')`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update wallet_transactions t set reference = l.hold_id
    from wallet_hold_labels l
    where t.reference = l.label and (t.key like 'hold:%' or t.key like 'settlement:%')`.execute(db);
  await sql`drop table if exists wallet_hold_labels`.execute(db);
}
