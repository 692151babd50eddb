import type { ContractsArea } from '../area.js';
import * as advanceTables from './read-model/migrations/20261126_0710_contract_advances.js';
import { debtRecoveriesProjector } from './read-model/projector.js';

/**
 * The advance families (AVANCE_SUR_INTRANT, AVANCE_SUR_ANANAS, FINANCEMENT_SOCIAL), read from
 * the growers' debts the seasons open (deliveries by code, accepted PINEAPLE and SOCIAL
 * requests), with what each delivery contract recovered of them.
 */
export const advancesArea: ContractsArea = {
  name: 'contract-advances',
  migrations: { '20261126_0710_contract_advances': advanceTables },
  projectors: [debtRecoveriesProjector],
  http: async () => (await import('./http/routes.js')).registerContractAdvances,
};

export type { AdvancesTables } from './tables.js';
