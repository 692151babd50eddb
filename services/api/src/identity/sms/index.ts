import type { Kysely } from 'kysely';
import type { Config, Logger } from '@filiere/platform';
import type { IdentityTables } from '../tables.js';
import { outboxSms } from './outbox-sms.js';
import type { SmsSender } from './sms.js';

export type { Sms, SmsKind, SmsSender, SmsStatus } from './sms.js';
export { SMS_KINDS, SMS_STATUSES } from './sms.js';
export { outboxRow } from './outbox-sms.js';
export {
  maskNumber,
  payoutApprovedSms,
  payoutRejectedSms,
  payoutRequestedSms,
  pinSms,
} from './templates.js';

/**
 * SMS as every context sends it: the `sms_outbox` table, with the text in the log in
 * development only; with `SMS_GATEWAY` set, messaging's dispatcher sends it from there.
 */
export function createSms<DB extends IdentityTables>(
  config: Pick<Config, 'NODE_ENV'>,
  db: Kysely<DB>,
  logger: Logger,
): SmsSender {
  return outboxSms(db, logger, { logText: config.NODE_ENV === 'development' });
}
export { SmsOutboxStore, type ClaimedSms, type SmsReport, type SmsRow } from './store.js';
