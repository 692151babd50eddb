import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { canonicalJson, type CommandPipeline, type StreamState } from '@filiere/event-store';
import { beninDay, BusinessRuleError, NotFoundError, ValidationError } from '@filiere/platform';
import type { ActorsTables } from '../../actors/index.js';
import type { IdentityTables } from '../../identity/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { placeHold, releaseHold, walletStreamId, type WalletState } from '../../wallet/index.js';
import {
  cancelDeliveryContract,
  confirmDeliveryContract,
  contractStreamId,
  createDeliveryContract,
  markOutOfTime,
  recordDelivery,
  tonnesToKg,
  type ContractActor,
  type ContractAnswer,
  type ContractState,
} from '../domain/index.js';

/** What the contract commands read: identity's users (wallets) and the actors' growers, plots. */
export type ContractFactsTables = Pick<IdentityTables, 'users'> &
  Pick<ActorsTables, 'growers' | 'plots' | 'cooperatives'>;

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

/** The wallet's and seasons' wording for a key reused for another request. */
export const IDEMPOTENCY_KEY_REUSED =
  'Cette Idempotency-Key a déjà servi pour une autre requête : utilisez une nouvelle clé pour une nouvelle opération';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const actorOf = (user: SignedInUser): ContractActor => ({
  userId: user.id,
  role: user.role_code,
});

/**
 * The delivery contracts' command services: each runs ONE pipeline command over the
 * contract's stream and the aggregator's wallet stream, so a contract never exists without
 * its hold (nor is cancelled without its release), and a refused command writes nothing.
 */
export class DeliveryContractCommands {
  /** `db`: a pool narrowed to these tables (`narrowDb<ContractFactsTables>()(db)`). */
  constructor(
    private readonly db: Kysely<ContractFactsTables>,
    private readonly pipeline: CommandPipeline,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private async walletOf(userId: string): Promise<string> {
    const row = await this.db
      .selectFrom('users')
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
    const walletStream = walletStreamId(walletId);
    const contractStream = contractStreamId(contractId);
    // The first result is stored with the request's fingerprint: a repeat answers it, the key
    // reused for another request is a 422 and writes nothing.
    const fingerprint = createHash('sha256')
      .update(canonicalJson({ command: 'contracts.create', input: request }), 'utf8')
      .digest('hex');
    const { result } = await this.pipeline.handle({
      ...(idempotencyKey
        ? { idempotencyKey: `${user.id}:contracts.create:${idempotencyKey}` }
        : {}),
      streams: [contractStream, walletStream],
      metadata: { userId: user.id },
      // An unopened wallet holds nothing: the decider answers 422 before any hold.
      decide: (states: Record<string, StreamState>) => {
        const wallet = states[walletStream]!.state as WalletState;
        const contract = createDeliveryContract(
          states[contractStream]!.state as ContractState,
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
          },
          actorOf(user),
          {
            now,
            availableBalance: wallet.opened ? wallet.availableBalance : 0,
            plotOfGrower: plot?.grower_id === grower.id,
          },
        );
        const hold = placeHold(wallet, {
          holdId: contract.result.hold.holdId,
          amount: contract.result.hold.amount,
          purpose: contract.result.hold.purpose,
        });
        return {
          result: { $fingerprint: fingerprint, $result: contract.result.contract },
          writes: [...contract.writes, ...hold.writes],
        };
      },
    });
    const stored = result as { $fingerprint: string; $result: ContractAnswer };
    if (stored.$fingerprint !== fingerprint) {
      throw new BusinessRuleError(IDEMPOTENCY_KEY_REUSED, { reason: 'IDEMPOTENCY_KEY_REUSED' });
    }
    return stored.$result;
  }

  /** The contract's current state (through the pipeline's cache); 404 when it does not exist. */
  private async contractOf(contractId: string, userId: string): Promise<ContractState> {
    const contractStream = contractStreamId(contractId);
    const { result } = await this.pipeline.handle({
      streams: [contractStream],
      metadata: { userId },
      decide: (states: Record<string, StreamState>) => ({
        writes: [],
        result: states[contractStream]!.state as ContractState,
      }),
    });
    const state = result as ContractState;
    if (!state.exists) throw new NotFoundError('Contrat introuvable');
    return state;
  }

  /** One command over the contract's stream alone. */
  private async onContract(
    user: { id: string },
    contractId: string,
    decide: (state: ContractState) => { writes: unknown[]; result: ContractAnswer | null },
  ): Promise<ContractAnswer | null> {
    const contractStream = contractStreamId(contractId);
    const { result } = await this.pipeline.handle({
      streams: [contractStream],
      metadata: { userId: user.id },
      decide: (states: Record<string, StreamState>) =>
        decide(states[contractStream]!.state as ContractState) as never,
    });
    return result as ContractAnswer | null;
  }

  /**
   * PATCH contracts/delivery-contract/{id}/confirm: the grower's user, or the user of the
   * grower's cooperative (looked up now: the cooperative the grower belongs to today).
   */
  async confirm(user: SignedInUser, contractId: string): Promise<ContractAnswer> {
    const current = await this.contractOf(contractId, user.id);
    const cooperative = await this.db
      .selectFrom('growers as g')
      .innerJoin('cooperatives as c', 'c.organization_id', 'g.cooperative_id')
      .select('c.user_id')
      .where('g.id', '=', current.growerId)
      .where('c.deactivated_at', 'is', null)
      .executeTakeFirst();
    const answer = await this.onContract(user, contractId, (state) =>
      confirmDeliveryContract(state, actorOf(user), {
        now: this.clock().toISOString(),
        cooperativeUserId: cooperative?.user_id ?? null,
      }),
    );
    return answer!;
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
    const contractStream = contractStreamId(contractId);
    const current = await this.contractOf(contractId, user.id);
    const walletId = await this.walletOf(current.aggregatorUserId);
    const walletStream = walletStreamId(walletId);
    const { result } = await this.pipeline.handle({
      streams: [contractStream, walletStream],
      metadata: { userId: user.id },
      decide: (states: Record<string, StreamState>) => {
        const canceled = cancelDeliveryContract(
          states[contractStream]!.state as ContractState,
          actorOf(user),
          { now: this.clock().toISOString() },
        );
        const release = canceled.result.release
          ? releaseHold(states[walletStream]!.state as WalletState, {
              holdId: canceled.result.release.holdId,
            }).writes
          : [];
        return { result: canceled.result.contract, writes: [...canceled.writes, ...release] };
      },
    });
    return result as ContractAnswer;
  }
}
