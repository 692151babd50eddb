import type { ReportingArea } from '../area.js';
import * as dashboardTables from './migrations/20261127_0100_dashboard.js';
import * as debtRollup from './migrations/20261128_0100_dashboard_debt_rollup.js';
import * as everyone from './migrations/20261130_0100_dashboard_everyone.js';
import * as linksByGrower from './migrations/20261130_0101_dashboard_links_by_grower.js';
import { dashboardProjector } from './read-model/projector.js';
import { DASHBOARD_PUSHES } from './schemas.js';

/**
 * Reporting's area: the dashboard (migration block 20261127_01NN). The `reporting-dashboard`
 * projector follows the growers', contracts' and carriage's events into per-day tables;
 * `GET contracts/stats`, `contracts/stats/{id}` and `dashboard/me` read them only, and the
 * projector pushes `reporting.dashboard` to the users whose figures changed.
 */
export const dashboardArea: ReportingArea = {
  name: 'dashboard',
  migrations: {
    '20261127_0100_dashboard': dashboardTables,
    '20261128_0100_dashboard_debt_rollup': debtRollup,
    '20261130_0100_dashboard_everyone': everyone,
    '20261130_0101_dashboard_links_by_grower': linksByGrower,
  },
  projectors: [dashboardProjector],
  pushes: DASHBOARD_PUSHES,
  http: async () => (await import('./http/index.js')).registerDashboard,
};

export type { DashboardTables } from './tables.js';
