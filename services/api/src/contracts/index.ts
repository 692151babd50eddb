import type { ContextModule } from '../kernel/module.js';
import { contractEvents, contractStreams } from './catalogue.js';
import { contractProjectors, contractReadMigrations } from './read-model/index.js';

/**
 * Contracts (issue 14): delivery contracts (LIVRAISON) from creation to their settlement,
 * and the debts growers owe (advances, social financing) netted when a contract is run.
 * Streams `contract-<id>` and `debt-<id>`; money moves only through the wallet's deciders,
 * in the same append as the contract's events.
 */
export const contractsModule: ContextModule = {
  name: 'contracts',
  events: contractEvents,
  streams: contractStreams,
  migrations: contractReadMigrations,
  projectors: contractProjectors,
  http: async () => (await import('./http/index.js')).registerContracts,
};

// The public face: what other contexts may use (the inputs and requests flows open debts).
export type { ContractsTables } from './tables.js';
export {
  debtStreamId,
  openDebt,
  DEBT_KINDS,
  type DebtKind,
  type DebtState,
} from './domain/index.js';
