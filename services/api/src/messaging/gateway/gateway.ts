/** One message as the dispatcher hands it to a gateway. */
export interface GatewayMessage {
  to: string;
  text: string;
  /** The outbox id: given to the gateway (in the status callback) so a report finds it. */
  reference: number;
}

/** What a gateway answered to a send. */
export type SendOutcome =
  /** Taken: `id` is what its delivery reports will name. */
  | { outcome: 'accepted'; id: string; segments?: number }
  /**
   * Not taken now (outage, 5xx, 429, timeout, refused credentials): tried again later.
   * `uncertain`: the request may have reached the gateway (no answer came back), so the next
   * attempt first asks the gateway whether it has the message.
   */
  | { outcome: 'retry'; reason: string; uncertain: boolean }
  /** Refused for good (invalid number, blocked recipient): the message fails with `reason`. */
  | { outcome: 'rejected'; reason: string };

/** What a gateway knows of a message whose earlier attempt got no answer. */
export type LookupOutcome =
  | { outcome: 'found'; id: string; segments?: number }
  | { outcome: 'absent' }
  | { outcome: 'unknown'; reason: string };

/**
 * A real SMS gateway (docs/messaging.md). The dispatcher sends through it and, before
 * sending again a message whose earlier attempt may have reached it, looks the message up,
 * so a message is sent once even through timeouts and crashes.
 */
export interface SmsGateway {
  /** Its name in `sms_outbox.gateway` and in the delivery reports' route. */
  readonly name: string;
  send(message: GatewayMessage): Promise<SendOutcome>;
  lookup(message: GatewayMessage & { since: Date }): Promise<LookupOutcome>;
}
