import { sql, type Kysely } from 'kysely';
import { HOLD_CODE_SQL } from '../hold-code.js';

/**
 * `wallet_hold_labels`: each hold's code, the contract reference that ends its HoldPlaced
 * purpose ('Contrat de livraison LIV-…' → 'LIV-…'; see hold-code.ts), kept by
 * wallet-transactions so that the rows a hold pays show it as their reference instead of the
 * hold's id (`contract-<uuid>`); holds without a code keep their id. Backfilled from the log,
 * and the rows projected before this migration relabelled, so the live tables equal a rebuild
 * (ledger:check).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table wallet_hold_labels (
    hold_id text primary key,
    label text not null
  )`.execute(db);
  await sql`insert into wallet_hold_labels (hold_id, label)
    select hold_id, code from (
      select position, data->>'holdId' as hold_id,
        substring(btrim(data->>'purpose') from ${HOLD_CODE_SQL}::text) as code
      from events
      where type = 'HoldPlaced'
    ) placed
    where code is not null
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
