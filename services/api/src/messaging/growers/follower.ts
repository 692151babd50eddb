import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { EventStore, RecordedEvent } from '@filiere/event-store';
import { narrowDb, type Logger, type LoopRunner } from '@filiere/platform';
import { createSms, identityUsers, type IdentityTables, type Sms } from '../../identity/index.js';
import { requestStreamId, type RequestEvent } from '../../seasons/index.js';
import type { MessagingTables } from '../tables.js';
import { inputDeliverySms, requestCodeSms } from './texts.js';

export const GROWER_MESSAGES = 'grower-messages';

/** The event types that cause a grower's message. */
export const GROWER_MESSAGE_EVENTS = ['GrowerRequestAccepted', 'InputDelivered'] as const;

type Db = MessagingTables & IdentityTables;
type Filed = Extract<RequestEvent, { type: 'GrowerRequestFiled' }>['data'];

/**
 * Follows the event log and writes the message each event owes a grower to the SMS outbox,
 * keyed by the event's position and the message's kind (`dedupe_key`): the outbox row, the
 * checkpoint's move and nothing else in one transaction, so a crash or a replay (the
 * checkpoint moved back) writes each message once. The grower's phone is read when the
 * message is written (the number it goes to is the one registered then).
 */
export class GrowerMessages implements LoopRunner {
  private readonly db: Kysely<Db>;

  static of<DB extends Db>(db: Kysely<DB>, events: EventStore, logger: Logger): GrowerMessages {
    return new GrowerMessages(narrowDb<Db>()(db), events, logger);
  }

  constructor(
    db: Kysely<Db>,
    private readonly events: EventStore,
    private readonly logger: Logger,
    private readonly batch = 500,
  ) {
    this.db = db;
  }

  async runDue(): Promise<number> {
    const at = await this.db
      .selectFrom('messaging_checkpoints')
      .select('position')
      .where('name', '=', GROWER_MESSAGES)
      .executeTakeFirst();
    const after = at?.position ?? 0;
    const page = await this.events.readAll({ after, limit: this.batch });
    if (page.length === 0) return 0;
    const messages: Sms[] = [];
    for (const event of page) {
      if (!(GROWER_MESSAGE_EVENTS as readonly string[]).includes(event.type)) continue;
      const message = await this.messageOf(event);
      if (message) messages.push(message);
    }
    const last = page.at(-1)!.position;
    await this.db.transaction().execute(async (trx) => {
      // The log never shows a code's text here (a delivery code is the grower's secret).
      const sms = createSms(
        { NODE_ENV: 'production' },
        narrowDb<IdentityTables>()<Db>(trx),
        this.logger,
      );
      for (const message of messages) await sms.send(message);
      await trx
        .insertInto('messaging_checkpoints')
        .values({ name: GROWER_MESSAGES, position: last })
        .onConflict((c) => c.column('name').doUpdateSet({ position: last, updated_at: sql`now()` }))
        .execute();
    });
    return page.length;
  }

  private async messageOf(event: RecordedEvent): Promise<Sms | undefined> {
    const data = event.data as RequestEvent['data'];
    if (!('requestId' in data)) return undefined;
    const filed = await this.filed(data.requestId);
    if (!filed || filed.type !== 'INPUT') return undefined;
    const phone = await this.phoneOf(filed.growerUserId);
    if (!phone) return undefined;
    const base = { to: phone, userId: filed.growerUserId, seasonId: filed.seasonId };
    if (event.type === 'GrowerRequestAccepted') {
      const accepted = data as Extract<RequestEvent, { type: 'GrowerRequestAccepted' }>['data'];
      if (!accepted.code) return undefined;
      return {
        ...base,
        kind: 'request-code',
        key: `${event.position}:request-code`,
        text: requestCodeSms(filed.reference, filed.quantityKg, accepted.code),
      };
    }
    const delivered = data as Extract<RequestEvent, { type: 'InputDelivered' }>['data'];
    return {
      ...base,
      kind: 'input-delivery',
      key: `${event.position}:input-delivery`,
      text: inputDeliverySms(filed.reference, filed.quantityKg, delivered.amount),
    };
  }

  private async filed(requestId: number): Promise<Filed | undefined> {
    const stream = await this.events.readStream(requestStreamId(requestId));
    const first = stream.find((e) => e.type === 'GrowerRequestFiled');
    return first?.data as Filed | undefined;
  }

  private async phoneOf(userId: string): Promise<string | undefined> {
    const user = await this.db
      .selectFrom(identityUsers().as('u'))
      .select('u.phone')
      .where('u.id', '=', userId)
      .where('u.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!user?.phone) this.logger.warn({ userId }, 'grower without a phone: no sms');
    return user?.phone ?? undefined;
  }
}
