import type { ContractEvent, DebtKind } from './events.js';

/** The folded state of stream `debt-<debtId>`: a grower's debt and what was recovered of it. */
export interface DebtState {
  exists: boolean;
  debtId: string | null;
  kind: DebtKind | null;
  creditorUserId: string;
  debtorGrowerId: string;
  principal: number;
  recovered: number;
  openedAt: string;
  /** Recovered amount per settling contract: a contract recovers a debt at most once. */
  recoveries: Record<string, number>;
}

export const debtStreamId = (debtId: string): string => `debt-${debtId}`;

export function initialDebtState(): DebtState {
  return {
    exists: false,
    debtId: null,
    kind: null,
    creditorUserId: '',
    debtorGrowerId: '',
    principal: 0,
    recovered: 0,
    openedAt: '',
    recoveries: {},
  };
}

export const outstandingOf = (debt: DebtState): number => debt.principal - debt.recovered;

export function evolveDebt(state: DebtState, event: ContractEvent): DebtState {
  switch (event.type) {
    case 'DebtOpened':
      return {
        ...state,
        exists: true,
        debtId: event.data.debtId,
        kind: event.data.kind,
        creditorUserId: event.data.creditorUserId,
        debtorGrowerId: event.data.debtorGrowerId,
        principal: event.data.principal,
        openedAt: event.data.openedAt,
      };
    case 'DebtRecovered':
      return {
        ...state,
        recovered: state.recovered + event.data.amount,
        recoveries: {
          ...state.recoveries,
          [event.data.contractId]:
            (state.recoveries[event.data.contractId] ?? 0) + event.data.amount,
        },
      };
    default:
      return state;
  }
}

export const debtStream = {
  category: 'debt',
  initialState: initialDebtState,
  evolve: evolveDebt,
};
