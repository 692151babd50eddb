import { sql, type Kysely } from 'kysely';

/**
 * The advance families' lists (AVANCE_SUR_INTRANT, AVANCE_SUR_ANANAS, FINANCEMENT_SOCIAL) read
 * `grower_debts`; their pages ('sub-contracts' of an advance) list what each delivery
 * contract recovered of it: `grower_debt_recoveries`, projected from `DebtRecovered`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table grower_debt_recoveries (
    debt_id text not null,
    contract_id text not null,
    amount bigint not null,
    recovered_at timestamptz not null,
    primary key (debt_id, contract_id)
  )`.execute(db);
  await sql`create index grower_debts_by_creditor
    on grower_debts (creditor_user_id, kind, opened_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists grower_debts_by_creditor`.execute(db);
  await sql`drop table if exists grower_debt_recoveries`.execute(db);
}
