import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { narrowDb } from '@filiere/platform';
import type { SmsKind } from '../../identity/index.js';
import type { MessagingTables } from '../tables.js';

/**
 * What a grower may refuse: the monthly summary and plain notices. Codes (PIN, delivery code,
 * contract code), the consent request, receipts (inputs delivered, payment), a security notice
 * of a payout-account change and the answer to his own request are always sent.
 */
export const OPTIONAL_SMS_KINDS: readonly SmsKind[] = ['monthly-summary', 'notice'];

export const isOptional = (kind: SmsKind | undefined): boolean =>
  OPTIONAL_SMS_KINDS.includes(kind ?? 'notice');

/** Who changed a grower's choice: a staff member (his user id), or the grower by SMS (STOP). */
export type OptOutSource = { staffUserId: string } | { sms: true };

/** The growers' opt-outs (`grower_sms_opt_outs`, one row per grower who ever chose). */
export class SmsOptOuts {
  private readonly db: Kysely<MessagingTables>;

  static of<DB extends MessagingTables>(db: Kysely<DB>): SmsOptOuts {
    return new SmsOptOuts(narrowDb<MessagingTables>()(db));
  }

  constructor(db: Kysely<MessagingTables>) {
    this.db = db;
  }

  async optedOut(userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('grower_sms_opt_outs')
      .select('opted_out')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.opted_out ?? false;
  }

  /** The grower's choice and when and by whom it was last changed (null: never chosen). */
  async of(userId: string) {
    const row = await this.db
      .selectFrom('grower_sms_opt_outs')
      .select(['opted_out', 'changed_by', 'source', 'changed_at'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return {
      optedOut: row?.opted_out ?? false,
      changedAt: row ? new Date(row.changed_at).toISOString() : null,
      source: row?.source ?? null,
    };
  }

  /** Records the choice (the last one wins); answers whether it changed anything. */
  async set(userId: string, optedOut: boolean, by: OptOutSource): Promise<boolean> {
    const values = {
      opted_out: optedOut,
      changed_by: 'staffUserId' in by ? by.staffUserId : null,
      source: 'staffUserId' in by ? ('STAFF' as const) : ('SMS' as const),
      changed_at: sql<Date>`now()`,
    };
    const row = await this.db
      .insertInto('grower_sms_opt_outs')
      .values({ user_id: userId, ...values })
      .onConflict((c) =>
        c
          .column('user_id')
          .doUpdateSet(values)
          .where('grower_sms_opt_outs.opted_out', '<>', optedOut),
      )
      .returning('user_id')
      .executeTakeFirst();
    return row !== undefined;
  }
}
