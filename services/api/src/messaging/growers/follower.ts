import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { EventStore, RecordedEvent } from '@filiere/event-store';
import { narrowDb, type Logger, type LoopRunner } from '@filiere/platform';
import {
  contractStreamId,
  DocumentReferences,
  type ContractEventData,
  type VerificationTables,
} from '../../contracts/index.js';
import { createSms, identityUsers, type IdentityTables, type Sms } from '../../identity/index.js';
import {
  requestStreamId,
  seasonIdOn,
  type RequestEvent,
  type SeasonsTables,
} from '../../seasons/index.js';
import { withdrawalStreamId } from '../../wallet/index.js';
import { isOptional, SmsOptOuts } from '../optout/opt-outs.js';
import type { MessagingTables } from '../tables.js';
import { inputDeliverySms, paymentSms, requestCodeSms, type PaidTo } from './texts.js';

export const GROWER_MESSAGES = 'grower-messages';

/** The event types that cause a grower's message. */
export const GROWER_MESSAGE_EVENTS = [
  'GrowerRequestAccepted',
  'InputDelivered',
  'DeliveryContractSettled',
  'WithdrawalCompleted',
  'WithdrawalFailed',
] as const;

/** The payout a contract's run makes of the grower's net (contracts' `runPayoutId`). */
const RUN_PAYOUT = /^run-(.+)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Db = MessagingTables & IdentityTables & VerificationTables & Pick<SeasonsTables, 'seasons'>;
type Filed = Extract<RequestEvent, { type: 'GrowerRequestFiled' }>['data'];
type Settled = ContractEventData<'DeliveryContractSettled'>;
type Created = ContractEventData<'DeliveryContractCreated'>;

/**
 * Follows the event log and writes the message each event owes a grower to the SMS outbox,
 * keyed by the event's position and the message's kind (`dedupe_key`; a payment receipt by
 * its contract): the outbox rows, the checkpoint's move and nothing else in one transaction,
 * so a crash or a replay (the checkpoint moved back) writes each message once. The grower's
 * phone is read when the message is written (the number it goes to is the one registered
 * then). An optional message (`isOptional`) is not written to a grower who opted out.
 */
export class GrowerMessages implements LoopRunner {
  private readonly db: Kysely<Db>;
  private readonly optOuts: SmsOptOuts;
  private readonly references: DocumentReferences;

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
    this.optOuts = SmsOptOuts.of(db);
    this.references = new DocumentReferences(narrowDb<VerificationTables>()(db));
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
      if (!message) continue;
      if (isOptional(message.kind) && (await this.optOuts.optedOut(message.userId!))) continue;
      messages.push(message);
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
    switch (event.type) {
      case 'DeliveryContractSettled': {
        const settled = event.data as Settled;
        // Paid out to mobile money: the receipt waits for the payout's outcome.
        if (settled.payoutId) return undefined;
        return this.receipt(settled.contractId, { wallet: true });
      }
      case 'WithdrawalCompleted':
      case 'WithdrawalFailed': {
        const { withdrawalId } = event.data as { withdrawalId: string };
        const contractId = RUN_PAYOUT.exec(withdrawalId)?.[1];
        if (!contractId) return undefined;
        if (event.type === 'WithdrawalFailed') return this.receipt(contractId, { wallet: true });
        const requested = (await this.events.readStream(withdrawalStreamId(withdrawalId))).find(
          (e) => e.type === 'WithdrawalRequested',
        );
        const destination = (requested?.data as { destination?: string } | undefined)?.destination;
        return this.receipt(
          contractId,
          destination ? { mobileMoney: destination } : { wallet: true },
        );
      }
      default:
        return this.requestMessage(event);
    }
  }

  /**
   * A contract's payment receipt, once per contract (`payment:<contractId>`): its worth, each
   * recovery by creditor, the net and where it went, and the receipt's public reference.
   */
  private async receipt(contractId: string, paidTo: PaidTo): Promise<Sms | undefined> {
    const stream = await this.events.readStream(contractStreamId(contractId));
    const created = stream.find((e) => e.type === 'DeliveryContractCreated')?.data as
      Created | undefined;
    const settled = stream.find((e) => e.type === 'DeliveryContractSettled')?.data as
      Settled | undefined;
    if (!created || !settled) return undefined;
    const phone = await this.phoneOf(created.growerUserId);
    if (!phone) return undefined;
    const creditors = await this.namesOf(settled.recoveries.map((r) => r.creditorUserId));
    const byCreditor = new Map<string, number>();
    for (const r of settled.recoveries) {
      const name = creditors.get(r.creditorUserId) ?? 'Créancier';
      byCreditor.set(name, (byCreditor.get(name) ?? 0) + r.amount);
    }
    const verification = await this.references.issue({
      kind: 'RECEIPT',
      subjectKey: `receipt:${contractId}`,
      subjectId: contractId,
    });
    return {
      to: phone,
      userId: created.growerUserId,
      seasonId: (await seasonIdOn(this.db, created.deliveryDate)) ?? undefined,
      kind: 'payment',
      key: `payment:${contractId}`,
      text: paymentSms({
        contractReference: created.reference,
        gross: settled.payableAmount,
        recoveries: [...byCreditor].map(([creditor, amount]) => ({ creditor, amount })),
        net: settled.growerNet,
        paidTo,
        verification,
      }),
    };
  }

  private async requestMessage(event: RecordedEvent): Promise<Sms | undefined> {
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

  private async namesOf(userIds: readonly string[]): Promise<Map<string, string>> {
    const ids = [...new Set(userIds)].filter((id) => UUID.test(id));
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom(identityUsers().as('u'))
      .select(['u.id', 'u.firstname', 'u.lastname'])
      .where('u.id', 'in', ids)
      .execute();
    return new Map(rows.map((u) => [u.id, `${u.firstname} ${u.lastname ?? ''}`.trim()]));
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
