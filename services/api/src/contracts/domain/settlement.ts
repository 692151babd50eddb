import { BusinessRuleError, ForbiddenError } from '@filiere/platform';
import { ROLE } from '../../kernel/roles.js';
import { contractStreamId, type ContractState, type Settlement } from './contract-stream.js';
import { debtStreamId, outstandingOf, type DebtState } from './debt-stream.js';
import { decision, type ContractActor, type Decision, type StreamWrite } from './decision.js';
import { contractEvent, type Recovery } from './events.js';
import { requireContract } from './delivery-contract.js';
import { deliveredAmountOf } from './money.js';

/**
 * Running a delivery contract (decisions.md, "Contracts"), as a pure computation:
 *
 * 1. The delivery's worth: floor(deliveredKg × amount / quantityKg) (money.ts).
 * 2. What the aggregator pays (`payable`): the worth when it is within the hold; above the
 *    hold, the worth when the aggregator's available balance covers the excess, otherwise
 *    the held amount only (the excess is the `shortfall`, recorded, not paid).
 * 3. The grower's outstanding debts are deducted from `payable`, in this order: its input
 *    and pineapple advances owed to THIS aggregator (AVANCE_SUR_INTRANT, AVANCE_SUR_ANANAS;
 *    the recovered money is kept by the aggregator, so it never leaves its wallet), then its
 *    social financings (FINANCEMENT_SOCIAL, to any SFD; the recovered money is paid to the
 *    SFD's wallet). Within each group, oldest first (openedAt, then debtId). A debt larger
 *    than what is left is recovered in part; the rest carries over to the next contract.
 *    Advances owed to another aggregator are not touched.
 * 4. The rest is the grower's net, credited to its wallet.
 * 5. The net is paid out to the grower's mobile money number by the payout the run made
 *    before deciding (`payout`, its id given as an input) when the grower has a number
 *    (`payout` not null) and 0 < net ≤ the largest amount one payout may carry; otherwise
 *    it stays in the grower's wallet. The settlement event names the payout, or null.
 *
 * Conservation: payable = growerNet + Σ recoveries. Money leaving the aggregator's wallet
 * (`paidOut` = growerNet + Σ SFD recoveries) is captured from the hold first; the hold's
 * remainder is released (capturedFromHold + releasedFromHold = the hold, never leaked); only
 * when paidOut exceeds the hold is the excess (`extraFromAvailable`) taken from the available
 * balance.
 *
 * Consent: only a contract whose stream holds the grower's acceptance is run (acceptance.ts).
 *
 * Payout: payoutId ≠ null ⇔ payout given ∧ 0 < growerNet ≤ payout.maxAmount, and then
 * payoutId = payout.payoutId; a repeat answers the payoutId the settlement recorded.
 */
export interface SettlementInput {
  contract: Pick<
    ContractState,
    'contractId' | 'aggregatorUserId' | 'growerId' | 'amount' | 'quantityKg'
  > & {
    deliveredKg: number;
  };
  /** The hold's amount (the contract's amount: it is placed at creation). */
  held: number;
  /** The aggregator's available balance, this hold excluded. */
  aggregatorAvailable: number;
  /** The grower's debts (others are ignored); closed ones are skipped. */
  debts: readonly DebtState[];
}

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

export interface ComputedSettlement extends Settlement {
  keptByAggregator: number;
  paidOut: number;
}

const byAge = (a: DebtState, b: DebtState) =>
  a.openedAt < b.openedAt ? -1 : a.openedAt > b.openedAt ? 1 : a.debtId! < b.debtId! ? -1 : 1;

export function computeSettlement(input: SettlementInput): ComputedSettlement {
  const { contract, held } = input;
  const deliveredAmount = deliveredAmountOf(contract, contract.deliveredKg);
  let payable = deliveredAmount;
  if (deliveredAmount > held && deliveredAmount - held > Math.max(0, input.aggregatorAvailable)) {
    payable = held;
  }
  const shortfall = deliveredAmount - payable;
  const open = input.debts.filter(
    (d) =>
      d.exists &&
      d.debtorGrowerId === contract.growerId &&
      outstandingOf(d) > 0 &&
      d.recoveries[contract.contractId!] === undefined,
  );
  const advances = open
    .filter(
      (d) =>
        (d.kind === 'AVANCE_SUR_INTRANT' || d.kind === 'AVANCE_SUR_ANANAS') &&
        d.creditorUserId === contract.aggregatorUserId,
    )
    .sort(byAge);
  const social = open.filter((d) => d.kind === 'FINANCEMENT_SOCIAL').sort(byAge);
  let remaining = payable;
  const recoveries: Recovery[] = [];
  for (const debt of [...advances, ...social]) {
    if (remaining === 0) break;
    const amount = Math.min(outstandingOf(debt), remaining);
    remaining -= amount;
    recoveries.push({
      debtId: debt.debtId!,
      kind: debt.kind!,
      creditorUserId: debt.creditorUserId,
      amount,
      to: debt.kind === 'FINANCEMENT_SOCIAL' ? 'SFD' : 'AGGREGATOR',
    });
  }
  const growerNet = remaining;
  const keptByAggregator = recoveries
    .filter((r) => r.to === 'AGGREGATOR')
    .reduce((sum, r) => sum + r.amount, 0);
  const paidOut = payable - keptByAggregator;
  const capturedFromHold = Math.min(paidOut, held);
  return {
    deliveredAmount,
    payableAmount: payable,
    shortfall,
    capturedFromHold,
    releasedFromHold: held - capturedFromHold,
    extraFromAvailable: paidOut - capturedFromHold,
    recoveries,
    growerNet,
    keptByAggregator,
    paidOut,
  };
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
