import { evolveContract, initialContractState, type ContractState } from './contract-stream.js';
import { evolveDebt, initialDebtState, type DebtState } from './debt-stream.js';
import type { Decision } from './decision.js';
import type { ContractEvent } from './events.js';

/** Streams folded in memory, for the deciders' given/when/then tests. */
export class InMemoryContracts {
  readonly streams = new Map<string, ContractEvent[]>();

  apply<R>(decided: Decision<R>): R {
    for (const write of decided.writes) {
      this.streams.set(write.streamId, [
        ...(this.streams.get(write.streamId) ?? []),
        ...write.events,
      ]);
    }
    return decided.result;
  }

  contract(contractId: string): ContractState {
    return (this.streams.get(`contract-${contractId}`) ?? []).reduce(
      evolveContract,
      initialContractState(),
    );
  }

  debt(debtId: string): DebtState {
    return (this.streams.get(`debt-${debtId}`) ?? []).reduce(evolveDebt, initialDebtState());
  }

  debts(): DebtState[] {
    return [...this.streams.keys()]
      .filter((id) => id.startsWith('debt-'))
      .map((id) => this.debt(id.slice('debt-'.length)));
  }

  events(streamId: string): ContractEvent[] {
    return this.streams.get(streamId) ?? [];
  }
}

export const AGG = 'agg-user';
export const OTHER_AGG = 'other-agg-user';
export const GROWER = 'grower-1';
export const GROWER_USER = 'grower-user';
export const COOP_USER = 'coop-user';
export const SFD = 'sfd-user';
export const NOW = '2026-11-25T10:00:00.000Z';
