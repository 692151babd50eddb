import type { Logger, LoopRunner } from '@filiere/platform';
import type { ClaimedSms, SmsOutboxStore } from '../../identity/index.js';
import type { SmsGateway } from '../gateway/gateway.js';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from './backoff.js';

export interface DispatcherOptions {
  /** Messages claimed at once. */
  batch?: number;
  /** Requests to the gateway in flight at once. */
  concurrency?: number;
  /** How long a claim holds its messages (longer than a request's timeout). */
  leaseMs?: number;
  /** Attempts before a message that keeps meeting an outage fails. */
  maxAttempts?: number;
  backoff?: BackoffOptions;
  random?: () => number;
}

/**
 * Sends the outbox through a gateway, each message once: claimed (`sending`, FOR UPDATE SKIP
 * LOCKED, with a lease), sent, then marked `sent` with the gateway's id, all writes fenced by
 * the claim's token. An outage (5xx, 429, no answer) puts the message back `queued` with an
 * exponential, jittered delay; a refusal fails it with the gateway's reason; after
 * `maxAttempts` it fails with the last reason. A message whose earlier attempt may have
 * reached the gateway (no answer, a crash between the send and the write) is looked up first
 * and only sent again when the gateway does not have it.
 */
export class SmsDispatcher implements LoopRunner {
  private readonly batch: number;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly backoff: BackoffOptions;
  private readonly random: () => number;

  constructor(
    private readonly store: SmsOutboxStore,
    private readonly gateway: SmsGateway,
    private readonly logger: Logger,
    options: DispatcherOptions = {},
  ) {
    this.batch = options.batch ?? 50;
    this.concurrency = options.concurrency ?? 8;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.maxAttempts = options.maxAttempts ?? 20;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.random = options.random ?? Math.random;
  }

  async runDue(): Promise<number> {
    const claims = await this.store.claim(this.batch, this.leaseMs);
    let next = 0;
    const lane = async () => {
      while (next < claims.length) {
        const claim = claims[next++]!;
        try {
          await this.deliver(claim);
        } catch (error) {
          // The store failed (database restart): the lease runs out and the message is claimed
          // again, uncertain, so it is looked up before any second send.
          this.logger.error({ err: error, sms: claim.id }, 'sms dispatch failed');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, claims.length) }, lane));
    return claims.length;
  }

  private async deliver(claim: ClaimedSms): Promise<void> {
    const message = { to: claim.recipient, text: claim.text, reference: claim.id };
    if (claim.uncertain) {
      const known = await this.gateway.lookup({ ...message, since: claim.attemptStartedAt });
      if (known.outcome === 'found') {
        await this.store.sent(claim, this.gateway.name, known.id, known.segments);
        return;
      }
      if (known.outcome === 'unknown') {
        await this.again(claim, known.reason, false);
        return;
      }
    }
    const result = await this.gateway.send(message);
    switch (result.outcome) {
      case 'accepted':
        await this.store.sent(claim, this.gateway.name, result.id, result.segments);
        return;
      case 'rejected':
        this.logger.warn({ sms: claim.id, reason: result.reason }, 'sms refused by the gateway');
        await this.store.failed(claim, result.reason);
        return;
      case 'retry':
        await this.again(claim, result.reason, result.uncertain);
    }
  }

  private async again(claim: ClaimedSms, reason: string, uncertain: boolean): Promise<void> {
    if (claim.attempts >= this.maxAttempts) {
      await this.store.failed(claim, `${reason} — abandonné après ${claim.attempts} tentatives`);
      return;
    }
    const delay = backoffDelay(claim.attempts, this.backoff, this.random);
    this.logger.warn({ sms: claim.id, attempts: claim.attempts, reason, delay }, 'sms retried');
    await this.store.retry(claim, delay, reason, uncertain);
  }
}
