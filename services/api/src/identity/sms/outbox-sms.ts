import type { Kysely } from 'kysely';
import { narrowDb, type Logger } from '@filiere/platform';
import type { IdentityTables } from '../tables.js';
import type { Sms, SmsSender } from './sms.js';

/** The row an SMS becomes in `sms_outbox` (queued: the dispatcher sends it when a gateway is set). */
export function outboxRow(sms: Sms) {
  return {
    recipient: sms.to,
    text: sms.text,
    kind: sms.kind ?? 'notice',
    dedupe_key: sms.key ?? null,
    user_id: sms.userId ?? null,
    season_id: sms.seasonId ?? null,
  };
}

/**
 * Every SMS lands in the `sms_outbox` table (queued), once per `key`. In development the log
 * shows its text (a PIN included, so that a developer can use it); elsewhere the log says
 * only that an SMS was written, to whom, never its text (a PIN is a secret).
 */
export function outboxSms<DB extends IdentityTables>(
  db: Kysely<DB>,
  logger: Logger,
  options: { logText: boolean },
): SmsSender {
  const own = narrowDb<IdentityTables>()(db);
  return {
    async send(sms) {
      const written = await own
        .insertInto('sms_outbox')
        .values(outboxRow(sms))
        .onConflict((c) => c.column('dedupe_key').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!written) return;
      if (options.logText) logger.info({ to: sms.to, text: sms.text }, 'sms written to outbox');
      else logger.info({ to: sms.to }, 'sms written to outbox');
    },
    within: (trx) => outboxSms(trx, logger, options),
  };
}
