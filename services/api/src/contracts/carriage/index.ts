import type { ContractsArea } from '../area.js';
import { carriageDemoStep } from './demo/carriage.js';
import { carriageEvents, carriageStream } from './domain/carriage.js';
import * as carriageTables from './read-model/migrations/20261126_0800_carriage_contracts.js';
import { carriageContractsProjector } from './read-model/projector.js';

/**
 * Carriage contracts (contrats de transport): an aggregator hires a carrier's vehicle for a
 * transport date at an amount, held on its wallet at creation, released on cancel, paid to
 * the carrier's wallet once transported. Stream `carriage-<id>`; table `carriage_contracts`.
 */
export const carriageArea: ContractsArea = {
  name: 'contract-carriage',
  migrations: { '20261126_0800_carriage_contracts': carriageTables },
  events: carriageEvents,
  streams: [carriageStream],
  projectors: [carriageContractsProjector],
  demo: [carriageDemoStep],
  http: async () => (await import('./http/routes.js')).registerCarriageContracts,
};

export type { CarriageTables } from './tables.js';
export { CarriageQueries, type CarriageQueryTables } from './queries.js';
