import type { ReportingArea } from '../area.js';

/** Reporting's area: the super admin's reporting board (reporting/*; migration block 20261127_02NN). */
export const boardArea: ReportingArea = {
  name: 'board',
  migrations: {},
};
