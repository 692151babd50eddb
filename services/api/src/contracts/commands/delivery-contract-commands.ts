import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  handleCommand,
  requestFingerprint,
  streamRef,
  type CommandPipeline,
  type Decided,
} from '@filiere/event-store';
import { beninDay, NotFoundError, ValidationError } from '@filiere/platform';
import type { ActorsTables } from '../../actors/index.js';
import {
  identityUsers,
  maskNumber,
  type IdentityTables,
  type SmsSender,
} from '../../identity/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { placeHold, releaseHold, walletStream, walletStreamId } from '../../wallet/index.js';
import { contractStreamType } from '../catalogue.js';
import type { ContractsTables } from '../tables.js';
import {
  ACCEPTANCE_CODE,
  acceptanceErrors,
  acceptByReply,
  acceptanceOfferSms,
  cancelDeliveryContract,
  confirmDeliveryContract,
  contractStreamId,
  createDeliveryContract,
  markOutOfTime,
  recordDelivery,
  resendAcceptanceCode,
  tonnesToKg,
  type ContractActor,
  type ContractAnswer,
  type ContractState,
  type EnteredCode,
  type ReplyAcceptance,
} from '../domain/index.js';

export type { ReplyAcceptance } from '../domain/index.js';
import type { AcceptanceCodes } from './acceptance-code.js';

/**
 * The grower's offer with its code, sent after the command that issued it and only when the
 * contract's current code is `codeId` (the caller's): a repeated create, validation or resend
 * whose append was not this call's sends nothing. One message per code (its key).
 */
export async function sendAcceptanceOffer(
  pipeline: CommandPipeline,
  sms: SmsSender,
  offer: { contractId: string; userId: string; codeId: string; code: string },
): Promise<void> {
  const state = await handleCommand(pipeline, {
    streams: { contract: streamRef(contractStreamType, contractStreamId(offer.contractId)) },
    metadata: { userId: offer.userId },
    decide: ({ contract }) => ({ writes: [], result: contract }),
  });
  if (!state.exists || state.acceptanceCode?.codeId !== offer.codeId) return;
  await sms.send({
    to: state.acceptanceCode.phone,
    text: acceptanceOfferSms(state, offer.code),
    // A code: always sent (no opt-out), its text never shown to admins; one message per code.
    kind: 'contract-offer',
    key: `contract-offer:${offer.codeId}`,
  });
}

/** What the contract commands read: identity's users (wallets) and the actors' growers, plots. */
export type ContractFactsTables = Pick<IdentityTables, 'users'> &
  Pick<ActorsTables, 'growers' | 'plots' | 'cooperatives'> &
  Pick<ContractsTables, 'delivery_contracts'>;

/** `POST /api/contracts/delivery-contract` as validated (§3: quantity in tonnes, amount F CFA). */
export interface DeliveryContractRequest {
  growerId: string;
  productId: string;
  /** Tonnes, at most three decimals (converted to integer kg exactly). */
  quantity: string | number;
  amount: number;
  deliveryDate?: string | undefined;
  contractId?: string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const actorOf = (user: SignedInUser): ContractActor => ({
  userId: user.id,
  role: user.role_code,
});

/**
 * The delivery contracts' command services: each runs ONE pipeline command over the
 * contract's stream and the aggregator's wallet stream, so a contract never exists without
 * its hold (nor is cancelled without its release), and a refused command writes nothing.
 *
 * The grower's acceptance code (domain/acceptance.ts) is drawn before the command and sent by
 * SMS after it, only by the call whose code the stream holds: a repeat of the same create
 * (its Idempotency-Key) answers the first result and sends nothing, so the grower receives
 * one offer per contract and per 'Renvoyer le code'.
 */
export class DeliveryContractCommands {
  /** `db`: a pool narrowed to these tables (`narrowDb<ContractFactsTables>()(db)`). */
  constructor(
    private readonly db: Kysely<ContractFactsTables>,
    private readonly pipeline: CommandPipeline,
    private readonly clock: () => Date = () => new Date(),
    /** Where the grower's offer and code go; null for a process that creates no contract. */
    private readonly sms: SmsSender | null = null,
    /** Draws and checks the growers' acceptance codes; null for a process that takes none. */
    private readonly acceptanceCodes: AcceptanceCodes | null = null,
  ) {}

  private sender(): SmsSender {
    if (!this.sms) throw new Error('DeliveryContractCommands: no SMS sender to send the code');
    return this.sms;
  }

  private codes(): AcceptanceCodes {
    if (!this.acceptanceCodes) {
      throw new Error('DeliveryContractCommands: no acceptance codes to draw or check a code');
    }
    return this.acceptanceCodes;
  }

  private async phoneOf(userId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom(identityUsers().as('users'))
      .select('phone')
      .where('id', '=', userId)
      .executeTakeFirst();
    return row?.phone ? String(row.phone) : null;
  }

  /** The user of the grower's cooperative today, or null. */
  private async cooperativeOf(growerId: string): Promise<string | null> {
    const cooperative = await this.db
      .selectFrom('growers as g')
      .innerJoin('cooperatives as c', 'c.organization_id', 'g.cooperative_id')
      .select('c.user_id')
      .where('g.id', '=', growerId)
      .where('c.deactivated_at', 'is', null)
      .executeTakeFirst();
    return cooperative?.user_id ?? null;
  }

  /** Sends the offer with `code` when the contract's current code is `codeId` (this call's). */
  private async sendOffer(contractId: string, userId: string, codeId: string, code: string) {
    await sendAcceptanceOffer(this.pipeline, this.sender(), { contractId, userId, codeId, code });
  }

  private async walletOf(userId: string): Promise<string> {
    const row = await this.db
      .selectFrom(identityUsers().as('users'))
      .select('wallet_id')
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!row?.wallet_id) throw new NotFoundError('Portefeuille introuvable');
    return String(row.wallet_id);
  }

  async create(
    user: SignedInUser,
    request: DeliveryContractRequest,
    idempotencyKey?: string,
  ): Promise<ContractAnswer> {
    const quantityKg = tonnesToKg(request.quantity);
    if (!UUID.test(request.growerId) || !UUID.test(request.productId)) {
      throw new ValidationError('Contrat de livraison invalide', {
        fields: {
          ...(UUID.test(request.growerId) ? {} : { growerId: 'Ce champ est obligatoire' }),
          ...(UUID.test(request.productId) ? {} : { productId: 'Ce champ est obligatoire' }),
        },
      });
    }
    const grower = await this.db
      .selectFrom('growers')
      .select(['id', 'user_id'])
      .where('id', '=', request.growerId)
      .where('deactivated_at', 'is', null)
      .executeTakeFirst();
    if (!grower) throw new NotFoundError('Producteur introuvable');
    const plot = await this.db
      .selectFrom('plots')
      .select(['id', 'grower_id', 'product_type'])
      .where('id', '=', request.productId)
      .executeTakeFirst();
    const walletId = user.wallet_id;
    const contractId = request.contractId ?? randomUUID();
    const reference = `LIV-${contractId.slice(0, 8).toUpperCase()}`;
    const now = this.clock().toISOString();
    this.sender();
    const phone = await this.phoneOf(grower.user_id);
    const offer = phone ? this.codes().issue(phone) : null;
    const answer = await handleCommand(this.pipeline, {
      streams: {
        contract: streamRef(contractStreamType, contractStreamId(contractId)),
        wallet: streamRef(walletStream, walletStreamId(walletId)),
      },
      // A repeat answers the first result; the key reused for another request is a 422.
      idempotency: idempotencyKey
        ? {
            key: `${user.id}:contracts.create:${idempotencyKey}`,
            fingerprint: requestFingerprint('contracts.create', request),
          }
        : undefined,
      metadata: { userId: user.id },
      // An unopened wallet holds nothing: the decider answers 422 before any hold.
      decide: ({ contract, wallet }) => {
        const created = createDeliveryContract(
          contract,
          {
            contractId,
            reference,
            growerId: grower.id,
            growerUserId: grower.user_id,
            plotId: request.productId,
            productType: plot?.product_type ?? null,
            quantityKg,
            amount: request.amount,
            deliveryDate: request.deliveryDate,
            acceptanceCode: offer?.issue ?? null,
          },
          actorOf(user),
          {
            now,
            availableBalance: wallet.opened ? wallet.availableBalance : 0,
            plotOfGrower: plot?.grower_id === grower.id,
          },
        );
        const hold = placeHold(wallet, {
          holdId: created.result.hold.holdId,
          amount: created.result.hold.amount,
          purpose: created.result.hold.purpose,
        });
        return {
          result: created.result.contract,
          writes: [...created.writes, ...hold.writes],
        };
      },
    });
    if (offer) {
      await this.sendOffer(answer.contractId, user.id, offer.issue.codeId, offer.code);
    }
    return answer;
  }

  /**
   * POST contracts/delivery-contract/{id}/acceptance-code ('Renvoyer le code'): a new code
   * to the grower's phone (read now), replacing the previous one. Answers the masked phone.
   */
  async resendCode(
    user: SignedInUser,
    contractId: string,
  ): Promise<{ contractId: string; reference: string; phone: string }> {
    const current = await this.contractOf(contractId, user.id);
    const cooperativeUserId = await this.cooperativeOf(current.growerId);
    const phone = await this.phoneOf(current.growerUserId);
    if (!phone) throw acceptanceErrors.noPhone();
    const offer = this.codes().issue(phone);
    const answer = await handleCommand(this.pipeline, {
      streams: { contract: streamRef(contractStreamType, contractStreamId(contractId)) },
      metadata: { userId: user.id },
      decide: ({ contract }) =>
        resendAcceptanceCode(contract, offer.issue, actorOf(user), {
          now: this.clock().toISOString(),
          cooperativeUserId,
        }),
    });
    await this.sendOffer(contractId, user.id, offer.issue.codeId, offer.code);
    return { ...answer, phone: maskNumber(answer.phone) };
  }

  /** The contract's current state (through the pipeline's cache); 404 when it does not exist. */
  private async contractOf(contractId: string, userId: string): Promise<ContractState> {
    const state = await handleCommand(this.pipeline, {
      streams: { contract: streamRef(contractStreamType, contractStreamId(contractId)) },
      metadata: { userId },
      decide: ({ contract }) => ({ writes: [], result: contract }),
    });
    if (!state.exists) throw new NotFoundError('Contrat introuvable');
    return state;
  }

  /** One command over the contract's stream alone. */
  private async onContract(
    user: { id: string },
    contractId: string,
    decide: (state: ContractState) => Decided<ContractAnswer | null>,
  ): Promise<ContractAnswer | null> {
    return handleCommand(this.pipeline, {
      streams: { contract: streamRef(contractStreamType, contractStreamId(contractId)) },
      metadata: { userId: user.id },
      decide: ({ contract }) => decide(contract),
    });
  }

  /**
   * PATCH contracts/delivery-contract/{id}/confirm: the grower's user (his own consent), or
   * the user of the grower's cooperative (looked up now) with the code the grower received,
   * hashed here with the salt of the contract's current code. A wrong code is recorded, then
   * answered 422 with the attempts left.
   */
  async confirm(user: SignedInUser, contractId: string, code?: string): Promise<ContractAnswer> {
    const current = await this.contractOf(contractId, user.id);
    const cooperativeUserId = await this.cooperativeOf(current.growerId);
    let entered: EnteredCode | null = null;
    const byGrower = user.id === current.growerUserId;
    if (!byGrower && code !== undefined && code !== '' && current.acceptanceCode) {
      if (!ACCEPTANCE_CODE.test(code)) {
        throw new ValidationError('Le code reçu par le producteur a 6 chiffres', {
          fields: { code: 'Entré non valide' },
        });
      }
      entered = {
        codeId: current.acceptanceCode.codeId,
        codeHash: await this.codes().hash(
          code,
          current.acceptanceCode.salt,
          current.acceptanceCode.scheme,
        ),
      };
    }
    const answer = await handleCommand(this.pipeline, {
      streams: { contract: streamRef(contractStreamType, contractStreamId(contractId)) },
      metadata: { userId: user.id },
      decide: ({ contract }) =>
        confirmDeliveryContract(contract, actorOf(user), {
          now: this.clock().toISOString(),
          cooperativeUserId,
          code: entered,
        }),
    });
    const { wrongCode, ...confirmed } = answer;
    if (wrongCode) throw acceptanceErrors.wrong(wrongCode.remaining);
    return confirmed;
  }

  /**
   * The grower answered an offer by SMS, `OUI <code>`, from `phone` (his registered phone), in
   * the gateway's message `messageId`: decided over his PENDING and CONFIRMED contracts by the domain's
   * acceptByReply, as one command whose idempotency key is the message's id. A message the
   * gateway delivers again, even at the same moment, answers the first outcome and appends
   * nothing: it spends at most one attempt and accepts at most once.
   */
  async acceptByReply(
    grower: SignedInUser,
    phone: string,
    code: string,
    messageId: string,
  ): Promise<ReplyAcceptance> {
    if (!ACCEPTANCE_CODE.test(code)) throw new ValidationError('Le code a 6 chiffres');
    const pending = await this.db
      .selectFrom('delivery_contracts')
      .select('id')
      .where('grower_user_id', '=', grower.id)
      // CONFIRMED too: the code of one he accepted, sent again, answers that acceptance.
      .where('status', 'in', ['PENDING', 'CONFIRMED'])
      .orderBy('created_at')
      .execute();
    // The code hashed with each offered contract's salt (the hash is async, a decider is not).
    const entered = new Map<string, EnteredCode>();
    for (const { id } of pending) {
      const current = (await this.contractOf(id, grower.id)).acceptanceCode;
      if (!current || current.phone !== phone) continue;
      entered.set(id, {
        codeId: current.codeId,
        codeHash: await this.codes().hash(code, current.salt, current.scheme),
      });
    }
    const ids = [...entered.keys()];
    return handleCommand(this.pipeline, {
      streams: Object.fromEntries(
        ids.map((id) => [id, streamRef(contractStreamType, contractStreamId(id))]),
      ),
      metadata: { userId: grower.id },
      idempotency: {
        key: `${grower.id}:contracts.accept-by-reply:${messageId}`,
        fingerprint: requestFingerprint('contracts.accept-by-reply', { messageId, phone }),
      },
      decide: (states) =>
        acceptByReply(
          ids.map((id) => states[id]!),
          entered,
          actorOf(grower),
          { now: this.clock().toISOString(), phone },
        ),
    });
  }

  /** PATCH contracts/delivery-contract/{id}/delivery: the weighed quantity (t) and its date. */
  async recordDelivery(
    user: SignedInUser,
    contractId: string,
    input: { quantity: string | number; deliveredOn?: string | undefined },
  ): Promise<ContractAnswer> {
    const deliveredKg = tonnesToKg(input.quantity);
    const deliveredOn = input.deliveredOn ?? beninDay(this.clock());
    await this.contractOf(contractId, user.id);
    const answer = await this.onContract(user, contractId, (state) =>
      recordDelivery(state, { deliveredKg, deliveredOn }, actorOf(user), {
        now: this.clock().toISOString(),
      }),
    );
    return answer!;
  }

  /**
   * The scheduled job's step: CONFIRMED past its delivery date → OUTTIME; anything else
   * writes nothing. Answers whether this call turned it OUTTIME.
   */
  async markOutOfTime(contractId: string): Promise<boolean> {
    let changed = false;
    await this.onContract({ id: 'system' }, contractId, (state) => {
      const decided = markOutOfTime(state, { now: this.clock().toISOString() });
      changed = decided.writes.length > 0;
      return decided;
    });
    return changed;
  }

  async cancel(user: SignedInUser, contractId: string): Promise<ContractAnswer> {
    const current = await this.contractOf(contractId, user.id);
    const walletId = await this.walletOf(current.aggregatorUserId);
    return handleCommand(this.pipeline, {
      streams: {
        contract: streamRef(contractStreamType, contractStreamId(contractId)),
        wallet: streamRef(walletStream, walletStreamId(walletId)),
      },
      metadata: { userId: user.id },
      decide: ({ contract, wallet }) => {
        const canceled = cancelDeliveryContract(contract, actorOf(user), {
          now: this.clock().toISOString(),
        });
        const release = canceled.result.release
          ? releaseHold(wallet, { holdId: canceled.result.release.holdId }).writes
          : [];
        return { result: canceled.result.contract, writes: [...canceled.writes, ...release] };
      },
    });
  }
}
