import { mergeMigrations } from '@filiere/platform';
import type { ContextModule, HttpRegistration } from '../kernel/module.js';
import type { ContractsArea } from './area.js';
import { advancesArea, type AdvancesTables } from './advances/index.js';
import { batchesArea, type BatchesTables } from './batches/index.js';
import { carriageArea, type CarriageTables } from './carriage/index.js';
import { documentsArea, type DocumentsTables } from './documents/index.js';
import { contractEvents, contractStreams } from './catalogue.js';
import { contractsDemoStep } from './demo/contracts.js';
import { contractJobs } from './jobs/background.js';
import { CONTRACT_PUSHES } from './pushes.js';
import { contractProjectors, contractReadMigrations } from './read-model/index.js';
import type { ContractsTables as CoreContractsTables } from './tables.js';

/** The areas beside the core (migration block 20261126_07NN), in demo order. */
const areas: readonly ContractsArea[] = [batchesArea, advancesArea, carriageArea, documentsArea];

const registerContractsAndAreas: HttpRegistration = async (app) => {
  await (await import('./http/index.js')).registerContracts(app);
  for (const area of areas) {
    if (area.http) await (await area.http())(app);
  }
};

/**
 * Contracts: delivery contracts (LIVRAISON) from creation to their settlement,
 * and the debts growers owe (advances, social financing) netted when a contract is run.
 * Streams `contract-<id>` and `debt-<id>`; money moves only through the wallet's deciders,
 * in the same append as the contract's events.
 */
export const contractsModule: ContextModule = {
  name: 'contracts',
  events: [...contractEvents, ...areas.flatMap((a) => a.events ?? [])],
  streams: [...contractStreams, ...areas.flatMap((a) => a.streams ?? [])],
  migrations: mergeMigrations(contractReadMigrations, ...areas.map((a) => a.migrations)),
  projectors: [...contractProjectors, ...areas.flatMap((a) => a.projectors ?? [])],
  /** Contract runs and the OUTTIME sweep in the worker (the API runs them without REDIS_URL). */
  jobs: [contractJobs],
  /** The delivery contracts in every status first, then the areas' (parents, advances). */
  demo: [contractsDemoStep, ...areas.flatMap((a) => a.demo ?? [])],
  pushes: CONTRACT_PUSHES,
  http: async () => registerContractsAndAreas,
};

// The public face: what other contexts may use (the inputs and requests flows open debts).
/** The core's tables and the areas'. */
export type ContractsTables = CoreContractsTables &
  BatchesTables &
  AdvancesTables &
  CarriageTables &
  DocumentsTables;
export {
  debtStream,
  debtStreamId,
  openDebt,
  DEBT_KINDS,
  type DebtKind,
  type DebtState,
} from './domain/index.js';
// The command services and the run, for the scripts that load many contracts (bench:contracts).
export {
  DeliveryContractCommands,
  type ContractFactsTables,
  type ReplyAcceptance,
} from './commands/delivery-contract-commands.js';
export { ContractSettler, runPayoutId, type SettleFactsTables } from './run/settle-contract.js';
// The settlement a grower's receipt reads, and the receipt's public reference (messaging/).
export { contractStreamId, type ContractEventData, type ContractEventOf } from './domain/index.js';
export { DocumentReferences, type VerificationTables } from './documents/verification.js';
export { GrowerStatements, type GrowerStatementTables } from './pdf/statement.js';
export type { GrowerStatementData } from './pdf/statement-pdf.js';
// The acceptance code's rules, for the bank test that checks consent against the log.
export { MAX_WRONG_CODES } from './domain/index.js';
export { AcceptanceCodes } from './commands/acceptance-code.js';
