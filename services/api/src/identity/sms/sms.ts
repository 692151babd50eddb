import type { Kysely } from 'kysely';
import type { IdentityTables } from '../tables.js';

/**
 * What a message is, for the admin's counts and for the grower's opt-out: codes and receipts
 * are always sent; everything else only to a grower who has not opted out
 * (docs/messaging.md).
 */
export const SMS_KINDS = [
  'pin',
  'payout-notice',
  'request-code',
  'input-delivery',
  'payment',
  'contract-offer',
  'monthly-summary',
  'balance-reply',
  'notice',
] as const;
export type SmsKind = (typeof SMS_KINDS)[number];

/** Where a message stands: queued → sending → sent → delivered, or failed (with a reason). */
export const SMS_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed'] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

/** One SMS: an E.164 number (`+22901XXXXXXXX`) and its text. */
export interface Sms {
  to: string;
  text: string;
  /** What it is (default `notice`). */
  kind?: SmsKind;
  /**
   * What caused it, unique per message (an event's id and the kind): a second send with the
   * same key writes nothing, so a replay of the log sends nothing twice.
   */
  key?: string;
  /** The user it is counted for (a grower). */
  userId?: string;
  /** The season it is counted for. */
  seasonId?: number;
}

/**
 * The port through which the product sends SMS (PIN codes, payout-account notices, the
 * growers' codes and receipts). Every adapter writes the message to the `sms_outbox` table;
 * with a gateway configured, messaging's dispatcher sends it from there exactly once.
 */
export interface SmsSender {
  send(sms: Sms): Promise<void>;
  /**
   * The same sender writing through `db` (the caller's transaction): the message commits or
   * rolls back with the change that caused it (a PIN is never changed without its SMS).
   */
  within<DB extends IdentityTables>(db: Kysely<DB>): SmsSender;
}
