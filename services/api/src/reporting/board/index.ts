import type { ReportingArea } from '../area.js';
import * as boardTables from './migrations/20261127_0200_board.js';
import { boardProjector } from './read-model/projector.js';
import { BOARD_PUSHES } from './schemas.js';

/**
 * Reporting's area: the super admin's reporting board (migration block 20261127_02NN). The
 * `reporting-board` projector follows the growers' and the wallet's events; `GET
 * reporting/growers-stats`, `reporting/transactions-stats` and `reporting/export.xlsx` read
 * its tables only; it pushes `reporting.board` to the super admins.
 */
export const boardArea: ReportingArea = {
  name: 'board',
  migrations: { '20261127_0200_board': boardTables },
  projectors: [boardProjector],
  pushes: BOARD_PUSHES,
  http: async () => (await import('./http/index.js')).registerBoard,
};

export type { BoardTables } from './tables.js';
