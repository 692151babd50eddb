import { BusinessRuleError, ForbiddenError } from '@filiere/platform';
import { ROLE } from '../../kernel/roles.js';
import { contractStreamId, type ContractState, type Settlement } from './contract-stream.js';
import { decision, type ContractActor, type Decision, type StreamWrite } from './decision.js';
import { contractEvent } from './events.js';
import { requireContract } from './delivery-contract.js';

import { debtStreamId, type DebtState } from './debt-stream.js';
import { computeSettlement } from './settlement-rule.js';

// The rule itself is pure and free of the server's dependencies (settlement-rule.ts): the
// collection centre's screen runs the very same function offline.
export {
  computeSettlement,
  type ComputedSettlement,
  type SettlementInput,
} from './settlement-rule.js';

/** What the wallet must do, in the same append as the settlement's events. */
export interface HoldSettlement {
  holdId: string;
  aggregatorUserId: string;
  holdAmount: number;
  /** Wallet credits, by user: the grower's net and each SFD's recovery (amounts > 0). */
  payments: { userId: string; amount: number; reason: 'GROWER_NET' | 'SOCIAL_FINANCING' }[];
  capturedFromHold: number;
  extraFromAvailable: number;
  releasedFromHold: number;
}

/** The wallet credits of a settlement: the grower's net, then one per SFD (summed). */
export function holdSettlementOf(
  contract: Pick<ContractState, 'holdId' | 'aggregatorUserId' | 'amount' | 'growerUserId'>,
  settlement: Settlement,
): HoldSettlement {
  const payments: HoldSettlement['payments'] = [];
  if (settlement.growerNet > 0) {
    payments.push({
      userId: contract.growerUserId,
      amount: settlement.growerNet,
      reason: 'GROWER_NET',
    });
  }
  const sfd = new Map<string, number>();
  for (const r of settlement.recoveries) {
    if (r.to === 'SFD') sfd.set(r.creditorUserId, (sfd.get(r.creditorUserId) ?? 0) + r.amount);
  }
  for (const [userId, amount] of sfd) payments.push({ userId, amount, reason: 'SOCIAL_FINANCING' });
  return {
    holdId: contract.holdId,
    aggregatorUserId: contract.aggregatorUserId,
    holdAmount: contract.amount,
    payments,
    capturedFromHold: settlement.capturedFromHold,
    extraFromAvailable: settlement.extraFromAvailable,
    releasedFromHold: settlement.releasedFromHold,
  };
}

/**
 * Where a run's recoveries went: the grower's input and pineapple advances owed to the
 * aggregator (kept in its wallet), its social financings (paid to the SFDs) and the net
 * paid to the grower; null until the contract is run.
 */
export interface SettlementBreakdown {
  inputAdvances: number;
  pineappleAdvances: number;
  socialFinancing: number;
  growerNet: number;
}

/** The breakdown of a settlement's recoveries by debt family. */
export function breakdownOf(settlement: {
  recoveries: readonly { kind: string; amount: number }[];
  growerNet: number;
}): SettlementBreakdown {
  const sum = (kind: string) =>
    settlement.recoveries.filter((r) => r.kind === kind).reduce((a, r) => a + r.amount, 0);
  return {
    inputAdvances: sum('AVANCE_SUR_INTRANT'),
    pineappleAdvances: sum('AVANCE_SUR_ANANAS'),
    socialFinancing: sum('FINANCEMENT_SOCIAL'),
    growerNet: settlement.growerNet,
  };
}

/** The payout of the grower's net to its mobile money number, made before deciding. */
export interface PayoutInput {
  /** The withdrawal's id (one per contract, so a repeat names the same one). */
  payoutId: string;
  /** The largest amount one payout may carry: a larger net stays in the grower's wallet. */
  maxAmount: number;
}

/** The payout a new settlement names (rule 5): the input's id, or null. */
export function payoutOf(payout: PayoutInput | null, growerNet: number): string | null {
  return payout !== null && growerNet > 0 && growerNet <= payout.maxAmount ? payout.payoutId : null;
}

export interface SettlementAnswer {
  contractId: string;
  reference: string;
  status: 'COMPLETED';
  /** The settlement's figures (its payout apart, in `payoutId`). */
  settlement: Omit<Settlement, 'payoutId'>;
  /** The withdrawal paying the net out (rule 5), or null: the wallet requests it. */
  payoutId: string | null;
  /** Null when the contract was already paid: a second run decides nothing. */
  wallet: HoldSettlement | null;
}

/**
 * Runs one DELIVERED contract, exactly once: COMPLETED already → the recorded settlement and
 * no writes. Writes the contract's DeliveryContractSettled and one DebtRecovered per debt
 * touched (on its `debt-<id>` stream), and answers the hold settlement and the payout the
 * wallet must apply in the same append. By its aggregator, an admin, or the system (the
 * background run). `facts.payout`: the payout made before deciding, null when the grower
 * has no mobile money number.
 */
export function settleDeliveryContract(
  state: ContractState,
  debts: readonly DebtState[],
  actor: ContractActor,
  facts: { now: string; aggregatorAvailable: number; payout: PayoutInput | null },
): Decision<SettlementAnswer> {
  const contractId = requireContract(state);
  const allowed =
    actor.role === 'SYSTEM' ||
    actor.role === ROLE.ADMIN ||
    actor.role === ROLE.SUPER_ADMIN ||
    actor.userId === state.aggregatorUserId;
  if (!allowed) throw new ForbiddenError('Ce contrat ne vous appartient pas');
  if (state.status === 'COMPLETED' && state.settlement) {
    const { payoutId, ...settlement } = state.settlement;
    return decision({
      contractId,
      reference: state.reference,
      status: 'COMPLETED',
      settlement,
      payoutId: payoutId ?? null,
      wallet: null,
    });
  }
  if (state.status !== 'DELIVERED' || state.deliveredKg === null) {
    throw new BusinessRuleError('Seul un contrat livré peut être exécuté');
  }
  if (state.acceptance === null) {
    throw new BusinessRuleError(
      'Ce contrat n’a pas l’accord du producteur : il ne peut pas être exécuté',
      {
        reason: 'ACCEPTANCE_MISSING',
      },
    );
  }
  const computed = computeSettlement({
    contract: { ...state, deliveredKg: state.deliveredKg },
    held: state.amount,
    aggregatorAvailable: facts.aggregatorAvailable,
    debts,
  });
  const { keptByAggregator: _k, paidOut: _p, ...settlement } = computed;
  const payoutId = payoutOf(facts.payout, settlement.growerNet);
  const debtWrites: StreamWrite[] = computed.recoveries.map((r) => ({
    streamId: debtStreamId(r.debtId),
    events: [
      contractEvent('DebtRecovered', {
        debtId: r.debtId,
        contractId,
        amount: r.amount,
        recoveredAt: facts.now,
      }),
    ],
  }));
  return decision(
    {
      contractId,
      reference: state.reference,
      status: 'COMPLETED',
      settlement,
      payoutId,
      wallet: holdSettlementOf(state, settlement),
    },
    {
      streamId: contractStreamId(contractId),
      events: [
        contractEvent('DeliveryContractSettled', {
          contractId,
          deliveredKg: state.deliveredKg,
          ...settlement,
          settledBy: actor.userId,
          settledAt: facts.now,
          payoutId,
        }),
      ],
    },
    ...debtWrites,
  );
}
