import type { ContractState, Settlement } from './contract-stream.js';
import { outstandingOf, type DebtState } from './debt-stream.js';
import type { Recovery } from './events.js';
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
