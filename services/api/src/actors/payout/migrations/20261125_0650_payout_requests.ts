import { sql, type Kysely } from 'kysely';

/**
 * Four-eyes payout-account requests: staff ask, a super admin other than the
 * requester approves (the change is then applied to `users` by identity) or rejects with a
 * reason. One pending request per member at a time (a partial unique index): a second one
 * would let the approver see one change and apply another.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payout_requests')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('PENDING')
        .check(sql`status in ('PENDING', 'APPROVED', 'REJECTED')`),
    )
    .addColumn('old_momo_account_number', 'text')
    .addColumn('old_bank_name', 'text')
    .addColumn('old_bank_account_number', 'text')
    .addColumn('momo_account_number', 'text')
    .addColumn('bank_name', 'text')
    .addColumn('bank_account_number', 'text')
    .addColumn('comment', 'text')
    .addColumn('requested_by', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('decided_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('decided_at', 'timestamptz')
    .addColumn('rejection_reason', 'text')
    .addCheckConstraint(
      'payout_requests_decided',
      sql`(status = 'PENDING') = (decided_by is null and decided_at is null)`,
    )
    .addCheckConstraint(
      'payout_requests_rejection_reason',
      sql`(status = 'REJECTED') = (rejection_reason is not null)`,
    )
    .execute();
  await sql`create unique index payout_requests_one_pending on payout_requests (user_id)
    where status = 'PENDING'`.execute(db);
  await db.schema
    .createIndex('payout_requests_user_idx')
    .on('payout_requests')
    .columns(['user_id', 'requested_at'])
    .execute();
  await db.schema
    .createIndex('payout_requests_status_idx')
    .on('payout_requests')
    .columns(['status', 'requested_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payout_requests').execute();
}
