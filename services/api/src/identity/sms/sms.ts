/** One SMS: an E.164 number (`+22901XXXXXXXX`) and its text. */
export interface Sms {
  to: string;
  text: string;
}

/**
 * The port through which the product sends SMS (PIN codes, payout-account notices). The
 * default adapter writes to the `sms_outbox` table (outbox-sms.ts); a provider's adapter
 * (an SMS gateway) implements the same interface.
 */
export interface SmsSender {
  send(sms: Sms): Promise<void>;
}
