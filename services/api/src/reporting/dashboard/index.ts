import type { ReportingArea } from '../area.js';

/** Reporting's area: the dashboard (contracts/stats, cards and monthly series; migration block 20261127_01NN). */
export const dashboardArea: ReportingArea = {
  name: 'dashboard',
  migrations: {},
};
