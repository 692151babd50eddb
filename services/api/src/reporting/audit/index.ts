import type { ReportingArea } from '../area.js';

/** Reporting's area: the auditor's view of the ledger (integrity of the hash chain; migration block 20261127_03NN). */
export const auditArea: ReportingArea = {
  name: 'audit',
  migrations: {},
};
