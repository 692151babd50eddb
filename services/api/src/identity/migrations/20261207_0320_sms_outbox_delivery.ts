import { sql, type Kysely } from 'kysely';

/**
 * The SMS outbox becomes the queue a gateway sends from (messaging/, docs/messaging.md):
 * - `status`: queued → sending → sent → delivered, or failed with `failure` (a French reason
 *   the admin reads). Rows written before a gateway existed were never sent: they are marked
 *   failed so that no stale PIN goes out once a gateway is configured.
 * - `dedupe_key` (unique): the event and the kind of message that caused it, so writing the
 *   same message again (a replay) inserts nothing.
 * - `kind`, `user_id`, `season_id`: what the message is and whom and which season it is
 *   counted for (SMS cost money).
 * - `attempts`, `next_attempt_at`, `locked_until`, `claim_token`: the dispatcher's claim and
 *   its backoff; `uncertain`: the last attempt may have reached the gateway (a timeout, a
 *   crash while sending), so the next one first asks the gateway.
 * - `gateway`, `gateway_id` (unique per gateway): the gateway's id of the message, which its
 *   delivery reports name; `segments`: what it was billed as.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sms_outbox')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`status in ('queued', 'sending', 'sent', 'delivered', 'failed')`),
    )
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('notice'))
    .addColumn('dedupe_key', 'text', (c) => c.unique())
    .addColumn('user_id', 'uuid')
    .addColumn('season_id', 'integer')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('claim_token', 'uuid')
    .addColumn('uncertain', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('attempt_started_at', 'timestamptz')
    .addColumn('gateway', 'text')
    .addColumn('gateway_id', 'text')
    .addColumn('segments', 'integer')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('failed_at', 'timestamptz')
    .addColumn('failure', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`update sms_outbox set status = 'failed', failed_at = now(),
    failure = 'Écrit avant la mise en service de la passerelle SMS : jamais envoyé'`.execute(db);
  await sql`create unique index sms_outbox_gateway_id_unique on sms_outbox (gateway, gateway_id)
    where gateway_id is not null`.execute(db);
  await sql`create index sms_outbox_due_idx on sms_outbox (next_attempt_at, id)
    where status in ('queued', 'sending')`.execute(db);
  await sql`create index sms_outbox_user_idx on sms_outbox (user_id, id) where user_id is not null`.execute(
    db,
  );
  await sql`create index sms_outbox_season_idx on sms_outbox (season_id) where season_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    'sms_outbox_season_idx',
    'sms_outbox_user_idx',
    'sms_outbox_due_idx',
    'sms_outbox_gateway_id_unique',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  for (const column of [
    'updated_at',
    'failure',
    'failed_at',
    'delivered_at',
    'sent_at',
    'segments',
    'gateway_id',
    'gateway',
    'attempt_started_at',
    'uncertain',
    'claim_token',
    'locked_until',
    'next_attempt_at',
    'attempts',
    'season_id',
    'user_id',
    'dedupe_key',
    'kind',
    'status',
  ]) {
    await db.schema.alterTable('sms_outbox').dropColumn(column).execute();
  }
}
