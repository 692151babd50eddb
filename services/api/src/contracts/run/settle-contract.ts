import type { Kysely } from 'kysely';
import {
  handleCommand,
  streamRef,
  type CommandPipeline,
  type CommandWrite,
  type Idempotency,
  type StreamRef,
} from '@filiere/event-store';
import { NotFoundError } from '@filiere/platform';
import { identityUsers, type IdentityTables } from '../../identity/index.js';
import {
  evolveWallet,
  requestSystemPayout,
  settleHold,
  walletStream,
  walletStreamId,
  withdrawalStream,
  withdrawalStreamId,
  type AmountLimits,
  type WalletState,
  type WithdrawalState,
} from '../../wallet/index.js';
import { contractStreamType, debtStreamType } from '../catalogue.js';
import { opensWallet } from '../commands/opens-wallet.js';
import {
  contractStreamId,
  debtStreamId,
  evolveContract,
  recordDelivery,
  settleDeliveryContract,
  SYSTEM_ACTOR,
  type ContractActor,
  type ContractState,
  type DebtState,
  breakdownOf,
  type QualityGrade,
  type Recovery,
  type SettlementBreakdown,
} from '../domain/index.js';
import type { ContractsTables } from '../tables.js';

/** A contract's, a debt's and an SFD's wallet stream, named by its stream id in a command. */
const contractKey = (contractId: string) => `contract-${contractId}` as const;
const debtKey = (debtId: string) => `debt-${debtId}` as const;
const sfdKey = (walletId: string) => `wallet-${walletId}` as const;

/** The streams of one contract's run (see ContractSettler). */
type SettleStreams = {
  contract: StreamRef<ContractState>;
  aggregator: StreamRef<WalletState>;
  grower: StreamRef<WalletState>;
  withdrawal: StreamRef<WithdrawalState>;
} & Record<ReturnType<typeof debtKey>, StreamRef<DebtState>> &
  Record<ReturnType<typeof sfdKey>, StreamRef<WalletState>>;

/** What a run reads beside the streams: users (wallets, mobile money), outstanding debts. */
export type SettleFactsTables = Pick<IdentityTables, 'users'> &
  Pick<ContractsTables, 'grower_debts'>;

/** The id of the withdrawal paying a contract's net out, and of its hold's settlement. */
export const runPayoutId = (contractId: string): string => `run-${contractId}`;

/** A grower's outstanding debt as the read table shows it when the run starts. */
interface OutstandingDebt {
  id: string;
  kind: string;
  creditor_user_id: string;
}

/** A user's wallet and mobile money number. */
interface UserFacts {
  wallet_id: string | null;
  momo_account_number: string | null;
}

/** One contract's outcome in `settleMany`: what it settled, or why it was not. */
export type SettleResult =
  { contractId: string; outcome: SettleOutcome } | { contractId: string; error: unknown };

export interface SettleOutcome {
  contractId: string;
  reference: string;
  status: 'COMPLETED';
  growerNet: number;
  recoveredAmount: number;
  /** The recoveries by family (kept by the aggregator, paid to the SFDs) and the net. */
  breakdown: SettlementBreakdown;
  /** The withdrawal paying the net to the grower's mobile money number, or null. */
  payoutId: string | null;
  /** True when an earlier run had already paid it (this one wrote nothing). */
  alreadySettled: boolean;
  /** The delivery's worth (F CFA) and each debt recovered, as the settlement recorded them. */
  deliveredAmount: number;
  recoveries: Recovery[];
  /** The weighed kilograms the settlement paid. */
  deliveredKg: number;
}

/**
 * A weighing at the collection centre's scale, recorded and settled in the same command as
 * the run (`ContractSettler.weigh`): the delivery by `actor`, then the settlement.
 */
export interface WeighStep {
  actor: ContractActor;
  delivery: { deliveredKg: number; deliveredOn: string; grade?: QualityGrade | undefined };
  /** The command's idempotency (a replay of the same weighing answers its first result). */
  idempotency?: Idempotency | undefined;
  /** Decide and answer without writing: the preview shows the very figures confirm would. */
  dryRun?: boolean;
}

/**
 * Runs ONE delivery contract as ONE pipeline command over: the contract's stream, the
 * grower's outstanding debts' streams, the aggregator's wallet, the grower's, the SFDs'
 * wallets and the payout's withdrawal stream. The contracts' decider settles (COMPLETED,
 * DebtRecovered per debt), the wallet's `settleHold` pays the grower's net and the SFDs'
 * recoveries out of the hold (closing it, the excess from the available balance), and
 * `requestSystemPayout` debits the net to the grower's mobile money number — all in one
 * append or none. A contract already COMPLETED decides nothing: retries, double and
 * concurrent runs write nothing new (the streams' versions order concurrent attempts).
 *
 * The debts are those the read table shows outstanding when the run starts; a debt opened
 * after is not netted by this contract and carries over to the next one.
 */
export class ContractSettler {
  constructor(
    private readonly db: Kysely<SettleFactsTables>,
    private readonly pipeline: CommandPipeline,
    private readonly options: { clock?: () => Date; limits?: AmountLimits } = {},
  ) {}

  private now(): string {
    return (this.options.clock?.() ?? new Date()).toISOString();
  }

  /** The contracts' states, read through the pipeline (its cache) in one command. */
  private async contractsOf(contractIds: string[]): Promise<Map<string, ContractState>> {
    const ids = [...new Set(contractIds)];
    const streams: Record<
      ReturnType<typeof contractKey>,
      StreamRef<ContractState>
    > = Object.fromEntries(
      ids.map((id) => [contractKey(id), streamRef(contractStreamType, contractStreamId(id))]),
    );
    const states = await handleCommand(this.pipeline, {
      streams,
      metadata: { userId: SYSTEM_ACTOR.userId },
      decide: (read) => ({ writes: [], result: ids.map((id) => read[contractKey(id)]!) }),
    });
    const found = new Map<string, ContractState>();
    states.forEach((state, i) => {
      if (state.exists) found.set(ids[i]!, state);
    });
    return found;
  }

  /**
   * Records a weighing on a CONFIRMED contract and runs it, in ONE pipeline command: the
   * DeliveryRecorded event, the settlement, the hold's settlement and the payout are one
   * append or none, so a delivered contract left unpaid is never an outcome of the scale.
   * A replay with the same idempotency key answers the first result and writes nothing; a
   * contract already COMPLETED with the same weighing writes nothing either.
   */
  async weigh(contractId: string, step: WeighStep): Promise<SettleOutcome> {
    const [settled] = await this.settleMany([contractId], step);
    if ('error' in settled!) throw settled.error;
    return settled!.outcome;
  }

  /** Runs one contract (see the class); throws what `settleMany` reports. */
  async settle(contractId: string): Promise<SettleOutcome> {
    const [settled] = await this.settleMany([contractId]);
    if ('error' in settled!) throw settled.error;
    return settled!.outcome;
  }

  /**
   * Runs many contracts at once: their states in one pipeline read, the growers' outstanding
   * debts and the users' wallets in one query each, then one pipeline command per contract,
   * all sent together so the pipeline group-commits them (each still all or nothing). Answers
   * each contract's outcome or error, in order; throws only when the shared reads fail.
   */
  async settleMany(contractIds: string[], step?: WeighStep): Promise<SettleResult[]> {
    const contracts = await this.contractsOf(contractIds);
    const growerIds = [...new Set([...contracts.values()].map((c) => c.growerId))];
    const debtRows = growerIds.length
      ? await this.db
          .selectFrom('grower_debts')
          .select(['id', 'kind', 'creditor_user_id', 'debtor_grower_id'])
          .where('debtor_grower_id', 'in', growerIds)
          .whereRef('recovered', '<', 'principal')
          .orderBy('debtor_grower_id')
          .orderBy('opened_at')
          .orderBy('id')
          .execute()
      : [];
    const debtsOf = new Map<string, OutstandingDebt[]>();
    for (const d of debtRows) {
      const list = debtsOf.get(d.debtor_grower_id) ?? [];
      list.push(d);
      debtsOf.set(d.debtor_grower_id, list);
    }
    const userIds = [
      ...new Set([
        ...[...contracts.values()].flatMap((c) => [c.aggregatorUserId, c.growerUserId]),
        ...debtRows.filter((d) => d.kind === 'FINANCEMENT_SOCIAL').map((d) => d.creditor_user_id),
      ]),
    ];
    const users = userIds.length
      ? await this.db
          .selectFrom(identityUsers().as('users'))
          .select(['id', 'wallet_id', 'momo_account_number'])
          .where('id', 'in', userIds)
          .execute()
      : [];
    const byUser = new Map(users.map((u) => [u.id, u]));
    return Promise.all(
      contractIds.map(async (contractId): Promise<SettleResult> => {
        const contract = contracts.get(contractId);
        try {
          if (!contract) throw new NotFoundError('Contrat introuvable');
          const debts = debtsOf.get(contract.growerId) ?? [];
          return {
            contractId,
            outcome: await this.settleOne(contractId, contract, debts, byUser, step),
          };
        } catch (error) {
          return { contractId, error };
        }
      }),
    );
  }

  private async settleOne(
    contractId: string,
    contract: ContractState,
    debts: OutstandingDebt[],
    byUser: Map<string, UserFacts>,
    step?: WeighStep,
  ): Promise<SettleOutcome> {
    const sfdUserIds = [
      ...new Set(
        debts.filter((d) => d.kind === 'FINANCEMENT_SOCIAL').map((d) => d.creditor_user_id),
      ),
    ];
    const walletOfUser = (userId: string) => {
      const user = byUser.get(userId);
      if (!user?.wallet_id) throw new NotFoundError('Portefeuille introuvable');
      return String(user.wallet_id);
    };
    const aggregatorWallet = walletOfUser(contract.aggregatorUserId);
    const growerWallet = walletOfUser(contract.growerUserId);
    const momo = byUser.get(contract.growerUserId)?.momo_account_number?.trim() || null;
    // An SFD without a wallet is not a destination: its debts stay outstanding.
    const sfdWallets = new Map(
      sfdUserIds.filter((id) => byUser.get(id)?.wallet_id).map((id) => [id, walletOfUser(id)]),
    );
    const debtIds = debts
      .filter((d) => d.kind !== 'FINANCEMENT_SOCIAL' || sfdWallets.has(d.creditor_user_id))
      .map((d) => d.id);
    const growerStream = walletStreamId(growerWallet);
    const withdrawalId = runPayoutId(contractId);
    const streams: SettleStreams = {
      contract: streamRef(contractStreamType, contractStreamId(contractId)),
      aggregator: streamRef(walletStream, walletStreamId(aggregatorWallet)),
      grower: streamRef(walletStream, growerStream),
      withdrawal: streamRef(withdrawalStream, withdrawalStreamId(withdrawalId)),
      ...Object.fromEntries(
        debtIds.map((id) => [debtKey(id), streamRef(debtStreamType, debtStreamId(id))]),
      ),
      ...Object.fromEntries(
        [...sfdWallets.values()].map((w) => [
          sfdKey(w),
          streamRef(walletStream, walletStreamId(w)),
        ]),
      ),
    };
    const now = this.now();
    // The payout is made before deciding: the settlement names it when it pays the net out,
    // which needs the grower's mobile money number and a net within one payout's limit.
    const payout =
      momo === null
        ? null
        : {
            payoutId: withdrawalId,
            maxAmount: this.options.limits?.maxCommandAmount ?? Number.MAX_SAFE_INTEGER,
          };
    return handleCommand(this.pipeline, {
      streams,
      // The grower's and the SFDs' wallets are opened in this append if they never were.
      open: {
        grower: opensWallet(growerWallet, contract.growerUserId),
        ...Object.fromEntries(
          [...sfdWallets].map(([userId, walletId]) => [
            sfdKey(walletId),
            opensWallet(walletId, userId),
          ]),
        ),
      },
      idempotency: step?.dryRun ? undefined : step?.idempotency,
      metadata: { userId: step?.actor.userId ?? SYSTEM_ACTOR.userId },
      decide: (states): { writes: CommandWrite[]; result: SettleOutcome } => {
        const { aggregator, grower } = states;
        // A weighing first records the delivery, then settles the contract as it leaves it.
        const delivered = step
          ? recordDelivery(states.contract, step.delivery, step.actor, { now })
          : { writes: [] };
        const contractNow = delivered.writes
          .flatMap((w) => w.events)
          .reduce(evolveContract, states.contract);
        const settled = settleDeliveryContract(
          contractNow,
          debtIds.map((id) => states[debtKey(id)]!),
          step?.actor ?? SYSTEM_ACTOR,
          { now, aggregatorAvailable: aggregator.opened ? aggregator.availableBalance : 0, payout },
        );
        const { settlement, payoutId } = settled.result;
        const recoveredAmount = settlement.recoveries.reduce((sum, r) => sum + r.amount, 0);
        const outcome = (alreadySettled: boolean): SettleOutcome => ({
          contractId,
          reference: settled.result.reference,
          status: 'COMPLETED',
          growerNet: settlement.growerNet,
          recoveredAmount,
          breakdown: breakdownOf(settlement),
          payoutId,
          alreadySettled,
          deliveredAmount: settlement.deliveredAmount,
          recoveries: settlement.recoveries,
          deliveredKg: contractNow.deliveredKg ?? 0,
        });
        const wallet = settled.result.wallet;
        if (wallet === null) return { writes: [], result: outcome(true) };
        const walletIdOf = (userId: string) =>
          userId === contract.growerUserId ? growerWallet : sfdWallets.get(userId)!;
        const payments = wallet.payments.map((p) => ({
          walletId: walletIdOf(p.userId),
          amount: p.amount,
        }));
        const paid = settleHold(
          {
            wallet: aggregator,
            destinations: Object.fromEntries(
              payments.map((p) => [
                p.walletId,
                p.walletId === growerWallet ? grower : states[sfdKey(p.walletId)]!,
              ]),
            ),
          },
          {
            holdId: wallet.holdId,
            settlementId: withdrawalId,
            payments,
            closeHold: true,
            allowExcess: true,
          },
          this.options.limits,
        );
        let payoutWrites: CommandWrite[] = [];
        if (payoutId !== null && momo !== null) {
          // The grower's wallet as this same append leaves it (credited with its net).
          const credited = paid.writes
            .filter((w) => w.streamId === growerStream)
            .flatMap((w) => w.events)
            .reduce(evolveWallet, grower);
          payoutWrites = requestSystemPayout(
            { wallet: credited, withdrawal: states.withdrawal },
            {
              withdrawalId: payoutId,
              walletId: growerWallet,
              amount: settlement.growerNet,
              reason: `Paiement du contrat ${settled.result.reference}`,
            },
            { destination: momo, ...(this.options.limits ? { limits: this.options.limits } : {}) },
          ).writes;
        }
        if (step?.dryRun) return { writes: [], result: outcome(false) };
        return {
          writes: mergeWrites([
            ...delivered.writes,
            ...settled.writes,
            ...paid.writes,
            ...payoutWrites,
          ]),
          result: outcome(false),
        };
      },
    });
  }
}

/** One write per stream, events in order (the grower's wallet gets the credit then the debit). */
function mergeWrites(writes: CommandWrite[]): CommandWrite[] {
  const byStream = new Map<string, CommandWrite>();
  for (const w of writes) {
    const seen = byStream.get(w.streamId);
    if (seen) seen.events = [...seen.events, ...w.events];
    else byStream.set(w.streamId, { streamId: w.streamId, events: [...w.events] });
  }
  return [...byStream.values()];
}
