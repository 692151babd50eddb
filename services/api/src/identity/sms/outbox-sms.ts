import type { Kysely } from 'kysely';
import { narrowDb, type Logger } from '@filiere/platform';
import type { IdentityTables } from '../tables.js';
import type { SmsSender } from './sms.js';

/**
 * The default SMS adapter: every SMS lands in the `sms_outbox` table. In development the log
 * shows its text (a PIN included, so that a developer can use it); elsewhere the log says only
 * that an SMS was written, to whom, never its text (a PIN is a secret).
 */
export function outboxSms<DB extends IdentityTables>(
  db: Kysely<DB>,
  logger: Logger,
  options: { logText: boolean },
): SmsSender {
  const own = narrowDb<IdentityTables>()(db);
  return {
    async send(sms) {
      await own.insertInto('sms_outbox').values({ recipient: sms.to, text: sms.text }).execute();
      if (options.logText) logger.info({ to: sms.to, text: sms.text }, 'sms written to outbox');
      else logger.info({ to: sms.to }, 'sms written to outbox');
    },
  };
}
