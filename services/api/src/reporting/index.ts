import { mergeMigrations } from '@filiere/platform';
import type { ContextModule, HttpRegistration } from '../kernel/module.js';
import type { ReportingArea } from './area.js';
import { auditArea } from './audit/index.js';
import { boardArea } from './board/index.js';
import { dashboardArea } from './dashboard/index.js';

/**
 * The areas, each with its migration block: dashboard 20261127_01NN, board 20261127_02NN,
 * audit 20261127_03NN.
 */
const areas: readonly ReportingArea[] = [dashboardArea, boardArea, auditArea];

const registerAreas: HttpRegistration = async (app) => {
  for (const area of areas) {
    if (area.http) await (await area.http())(app);
  }
};

/**
 * Reporting: what the ledger adds up to, read from projections only — every user's
 * dashboard, the super admin's reporting board and the auditor's integrity panel. It owns
 * no money and no command; its projectors follow the other contexts' events and rebuild
 * identically (`ledger:check`).
 */
export const reportingModule: ContextModule = {
  name: 'reporting',
  events: areas.flatMap((a) => a.events ?? []),
  streams: areas.flatMap((a) => a.streams ?? []),
  migrations: mergeMigrations({}, ...areas.map((a) => a.migrations)),
  projectors: areas.flatMap((a) => a.projectors ?? []),
  jobs: areas.flatMap((a) => a.jobs ?? []),
  demo: areas.flatMap((a) => a.demo ?? []),
  pushes: areas.flatMap((a) => a.pushes ?? []),
  http: async () => registerAreas,
};

// The public face.
export type { ReportingTables } from './tables.js';
