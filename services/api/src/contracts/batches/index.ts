import type { ContractsArea } from '../area.js';
import { contractBatchesDemoStep } from './demo/batches.js';
import { batchEvents, parentStream } from './domain/events.js';
import * as batchTables from './read-model/migrations/20261126_0700_contract_batches.js';
import { contractParentsProjector } from './read-model/projector.js';

/**
 * 'Create many' (LIVRAISON_PARENT): a file (.xlsx/.csv) or a selection of growers checked
 * into a preview, then one parent + a sub-contract per grower with their holds, all or
 * nothing. Stream `contractparent-<id>`; tables `contract_batch_previews(_rows)`,
 * `contract_parents`.
 */
export const batchesArea: ContractsArea = {
  name: 'contract-batches',
  migrations: { '20261126_0700_contract_batches': batchTables },
  events: batchEvents,
  streams: [parentStream],
  projectors: [contractParentsProjector],
  demo: [contractBatchesDemoStep],
  http: async () => (await import('./http/routes.js')).registerContractBatches,
};

export type { BatchesTables } from './tables.js';
