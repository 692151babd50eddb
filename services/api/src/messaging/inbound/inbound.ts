import type { Kysely } from 'kysely';
import { narrowDb, type Logger } from '@filiere/platform';
import {
  identityUsers,
  normalizeBeninPhone,
  type IdentityTables,
  type SmsSender,
} from '../../identity/index.js';
import type { DeliveryContractCommands } from '../../contracts/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { ROLE } from '../../kernel/roles.js';
import { balanceAt, recentMovements, type WalletHistoryTables } from '../../wallet/index.js';
import {
  ACCEPT_HELP_REPLY,
  acceptanceReply,
  balanceReply,
  HELP_REPLY,
  inboundRequest,
  type InboundRequest,
  STATEMENT_MOVEMENTS,
  statementReply,
} from './replies.js';

type Tables = Pick<IdentityTables, 'users' | 'roles' | 'sms_outbox'> & WalletHistoryTables;

/** One message a grower sent to Filière's number, as the gateway reports it. */
export interface InboundSms {
  /** The gateway's id of the message: one answer per id, however often it is reported. */
  id: string;
  /** The sender's number, E.164. */
  from: string;
  body: string;
}

/**
 * Answers a grower's SMS (inbound/replies.ts). Only an active grower whose registered phone
 * is the sender's gets an answer, and it goes to that phone alone; any other sender gets
 * nothing (his number is not told whether it is known). The answer is written to the outbox
 * keyed by the message's id, so a report repeated by the gateway answers once.
 */
export class InboundReplies {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly sms: SmsSender,
    /** `OUI <code>` goes through the contracts' consent-by-code command. */
    private readonly contracts: Pick<DeliveryContractCommands, 'acceptByReply'>,
    /** The grower's user as the command pipeline's actor. */
    private readonly loadUser: (id: string) => Promise<SignedInUser | null | undefined>,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  static of<DB extends Tables>(
    db: Kysely<DB>,
    ports: {
      sms: SmsSender;
      contracts: Pick<DeliveryContractCommands, 'acceptByReply'>;
      loadUser: (id: string) => Promise<SignedInUser | null | undefined>;
    },
    logger: Logger,
    clock?: () => Date,
  ): InboundReplies {
    return new InboundReplies(
      narrowDb<Tables>()(db),
      ports.sms,
      ports.contracts,
      ports.loadUser,
      logger,
      clock,
    );
  }

  /** Whether an answer was written. */
  async answer(message: InboundSms): Promise<boolean> {
    const grower = await this.db
      .selectFrom(identityUsers().as('u'))
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select(['u.id', 'u.phone', 'u.wallet_id'])
      .where('u.phone', '=', normalizeBeninPhone(message.from) ?? message.from)
      .where('r.code', '=', ROLE.GROWER)
      .where('u.is_active', '=', true)
      .where('u.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!grower?.phone) {
      this.logger.info({ sid: message.id }, 'inbound sms from a number that is no grower');
      return false;
    }
    // A message Twilio posts again after its reply was written is answered already. A repeat
    // that comes sooner (at the same moment, or after a crash before the reply) is met by the
    // command's idempotency key, the message's id: an `OUI` takes effect at most once.
    const key = `inbound:${message.id}`;
    const answered = await this.db
      .selectFrom('sms_outbox')
      .select('id')
      .where('dedupe_key', '=', key)
      .executeTakeFirst();
    if (answered) return false;
    const request = inboundRequest(message.body);
    const text = await this.replyTo(request, message.id, {
      id: grower.id,
      phone: grower.phone,
      walletId: String(grower.wallet_id),
    });
    if (text === null) return false;
    await this.sms.send({
      to: grower.phone,
      text,
      kind: 'balance-reply',
      key,
      userId: grower.id,
    });
    return true;
  }

  private async replyTo(
    request: InboundRequest,
    messageId: string,
    grower: { id: string; phone: string; walletId: string },
  ): Promise<string | null> {
    if (request === 'help') return HELP_REPLY;
    if (request === 'accept-help') return ACCEPT_HELP_REPLY;
    if (typeof request === 'object') {
      const user = await this.loadUser(grower.id);
      if (!user) return null;
      return acceptanceReply(
        await this.contracts.acceptByReply(user, grower.phone, request.accept, messageId),
      );
    }
    const history = narrowDb<WalletHistoryTables>()(this.db);
    const balance = await balanceAt(history, grower.walletId, this.clock().toISOString());
    if (request === 'balance') return balanceReply(balance);
    return statementReply(
      await recentMovements(history, grower.walletId, STATEMENT_MOVEMENTS),
      balance.balance,
    );
  }
}
