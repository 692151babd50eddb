import { defineEvent, type EventDefinition, type StreamType } from '@filiere/event-store';
import {
  contractEventSchemas,
  contractStream,
  debtStream,
  type ContractEvent,
  type ContractState,
  type DebtState,
} from './domain/index.js';

/** The contracts' event types (version 1), for the product's catalogue. */
export const contractEvents: EventDefinition<string, any>[] = Object.entries(
  contractEventSchemas,
).map(([type, schema]) => defineEvent({ type, version: 1, schema }));

/** Stream `contract-<id>`: one delivery contract, from creation to its settlement. */
export const contractStreamType: StreamType<ContractState> = {
  category: contractStream.category,
  initialState: contractStream.initialState,
  evolve: (state, event) => contractStream.evolve(state, event as unknown as ContractEvent),
};

/** Stream `debt-<id>`: one debt of a grower (advance or social financing) and its recoveries. */
export const debtStreamType: StreamType<DebtState> = {
  category: debtStream.category,
  initialState: debtStream.initialState,
  evolve: (state, event) => debtStream.evolve(state, event as unknown as ContractEvent),
};

export const contractStreams: StreamType<any>[] = [contractStreamType, debtStreamType];
