import type { Kysely } from 'kysely';
import type { Config, Logger } from '@filiere/platform';
import type { IdentityTables } from '../tables.js';
import { outboxSms } from './outbox-sms.js';
import type { SmsSender } from './sms.js';

export type { Sms, SmsSender } from './sms.js';
export {
  maskNumber,
  payoutApprovedSms,
  payoutRejectedSms,
  payoutRequestedSms,
  pinSms,
} from './templates.js';

/**
 * SMS as every context sends it: the `sms_outbox` table (the only adapter until a gateway is
 * chosen), with the text in the log in development only.
 */
export function createSms<DB extends IdentityTables>(
  config: Pick<Config, 'NODE_ENV'>,
  db: Kysely<DB>,
  logger: Logger,
): SmsSender {
  return outboxSms(db, logger, { logText: config.NODE_ENV === 'development' });
}
