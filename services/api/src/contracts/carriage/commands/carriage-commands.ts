import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  handleCommand,
  requestFingerprint,
  streamRef,
  type CommandPipeline,
} from '@filiere/event-store';
import { NotFoundError, ValidationError } from '@filiere/platform';
import type { ActorsTables } from '../../../actors/index.js';
import { identityUsers, type IdentityTables } from '../../../identity/index.js';
import type { SignedInUser } from '../../../kernel/actor.js';
import {
  placeHold,
  releaseHold,
  settleHold,
  walletStream,
  walletStreamId,
} from '../../../wallet/index.js';
import { opensWallet } from '../../commands/opens-wallet.js';
import { insufficientBalanceError } from '../../domain/index.js';
import {
  cancelCarriageContract,
  CARRIAGE_MESSAGES,
  carriageStream,
  carriageStreamId,
  createCarriageContract,
  payCarriageContract,
  portoNovoDay,
  type CarriageAnswer,
  type CarriageState,
} from '../domain/carriage.js';

const carriageRef = (contractId: string) => streamRef(carriageStream, carriageStreamId(contractId));
const walletRef = (walletId: string) => streamRef(walletStream, walletStreamId(walletId));

/** What the carriage commands read: users (wallets) and the actors' carriers and vehicles. */
export type CarriageFactsTables = Pick<IdentityTables, 'users'> &
  Pick<ActorsTables, 'carriers' | 'vehicles'>;

/** `POST /api/contracts/carriage-contract` as validated. */
export interface CarriageContractRequest {
  carrierId: string;
  vehicleId: string;
  transportDate: string;
  amount: number;
  description?: string | undefined;
}

const actorOf = (user: SignedInUser) => ({ userId: user.id, role: user.role_code });

/**
 * The carriage contracts' commands: each is ONE pipeline command over the contract's stream
 * and the wallets it moves (create: the aggregator's hold; cancel: its release; pay: the hold
 * settled to the carrier's wallet), so a refused command writes nothing and concurrent pays
 * are ordered by the streams' versions (the second finds the contract PAID: 409).
 */
export class CarriageContractCommands {
  constructor(
    private readonly db: Kysely<CarriageFactsTables>,
    private readonly pipeline: CommandPipeline,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private async walletOf(userId: string): Promise<string> {
    const row = await this.db
      .selectFrom(identityUsers().as('users'))
      .select('wallet_id')
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!row?.wallet_id) throw new NotFoundError('Portefeuille introuvable');
    return String(row.wallet_id);
  }

  private async stateOf(contractId: string, userId: string): Promise<CarriageState> {
    const state = await handleCommand(this.pipeline, {
      streams: { contract: carriageRef(contractId) },
      metadata: { userId },
      decide: ({ contract }) => ({ writes: [], result: contract }),
    });
    if (!state.exists) throw new NotFoundError(CARRIAGE_MESSAGES.notFound);
    return state;
  }

  async create(
    user: SignedInUser,
    request: CarriageContractRequest,
    idempotencyKey?: string,
  ): Promise<CarriageAnswer> {
    const carrier = await this.db
      .selectFrom('carriers')
      .select(['id', 'user_id'])
      .where('id', '=', request.carrierId)
      .where('deactivated_at', 'is', null)
      .executeTakeFirst();
    if (!carrier) throw new NotFoundError('Transporteur introuvable');
    const vehicle = await this.db
      .selectFrom('vehicles')
      .select(['id', 'carrier_id', 'car_type', 'registration'])
      .where('id', '=', request.vehicleId)
      .executeTakeFirst();
    if (!vehicle || vehicle.carrier_id !== carrier.id) {
      throw new ValidationError('Contrat de transport invalide', {
        fields: { vehicleId: 'Ce véhicule n’appartient pas à ce transporteur' },
      });
    }
    const contractId = randomUUID();
    const reference = `TRA-${contractId.slice(0, 8).toUpperCase()}`;
    const now = this.clock().toISOString();
    return handleCommand(this.pipeline, {
      streams: { contract: carriageRef(contractId), wallet: walletRef(user.wallet_id) },
      idempotency: idempotencyKey
        ? {
            key: `${user.id}:carriage.create:${idempotencyKey}`,
            fingerprint: requestFingerprint('carriage.create', request),
          }
        : undefined,
      metadata: { userId: user.id },
      decide: ({ contract, wallet }) => {
        const created = createCarriageContract(
          contract,
          {
            contractId,
            reference,
            carrierId: carrier.id,
            carrierUserId: carrier.user_id,
            vehicleId: vehicle.id,
            carType: vehicle.car_type,
            registration: vehicle.registration,
            transportDate: request.transportDate,
            amount: request.amount,
            description: request.description?.trim() || null,
          },
          actorOf(user),
          { now },
        );
        const available = wallet.opened ? wallet.availableBalance : 0;
        if (available < request.amount) throw insufficientBalanceError(request.amount - available);
        const hold = placeHold(wallet, created.result.hold);
        return { result: created.result.contract, writes: [...created.writes, ...hold.writes] };
      },
    });
  }

  /** DELETE contracts/carriage-contract/{id}: CREATED → CANCELED, the hold released. */
  async cancel(user: SignedInUser, contractId: string): Promise<CarriageAnswer> {
    const current = await this.stateOf(contractId, user.id);
    const walletId = await this.walletOf(current.aggregatorUserId);
    return handleCommand(this.pipeline, {
      streams: { contract: carriageRef(contractId), wallet: walletRef(walletId) },
      metadata: { userId: user.id },
      decide: ({ contract, wallet }) => {
        const canceled = cancelCarriageContract(contract, actorOf(user), {
          now: this.clock().toISOString(),
        });
        const release = canceled.result.releaseHoldId
          ? releaseHold(wallet, { holdId: canceled.result.releaseHoldId }).writes
          : [];
        return { result: canceled.result.contract, writes: [...canceled.writes, ...release] };
      },
    });
  }

  /**
   * POST contracts/carriage-contract/{id}/pay: the hold paid whole to the carrier's wallet
   * (opened in the same append if it never was) and closed. Exactly once: a paid contract
   * answers 409 and writes nothing.
   */
  async pay(user: SignedInUser, contractId: string): Promise<CarriageAnswer> {
    const current = await this.stateOf(contractId, user.id);
    const aggregatorWallet = await this.walletOf(current.aggregatorUserId);
    const carrierWallet = await this.walletOf(current.carrierUserId);
    const at = this.clock();
    return handleCommand(this.pipeline, {
      streams: {
        contract: carriageRef(contractId),
        aggregator: walletRef(aggregatorWallet),
        carrier: walletRef(carrierWallet),
      },
      // The carrier's wallet is opened in the same append if it never was.
      open: { carrier: opensWallet(carrierWallet, current.carrierUserId) },
      metadata: { userId: user.id },
      decide: ({ contract, aggregator, carrier }) => {
        const paid = payCarriageContract(contract, actorOf(user), {
          now: at.toISOString(),
          today: portoNovoDay(at),
          carrierWalletId: carrierWallet,
        });
        const { settlement } = paid.result;
        const settled = settleHold(
          { wallet: aggregator, destinations: { [carrierWallet]: carrier } },
          {
            holdId: settlement.holdId,
            settlementId: settlement.settlementId,
            payments: [{ walletId: carrierWallet, amount: settlement.amount }],
            closeHold: true,
            allowExcess: false,
          },
        );
        return { result: paid.result.contract, writes: [...paid.writes, ...settled.writes] };
      },
    });
  }
}
