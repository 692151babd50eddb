import type { AuditTables } from './audit/tables.js';
import type { BoardTables } from './board/tables.js';
import type { DashboardTables } from './dashboard/tables.js';

/**
 * The reporting context's read tables, merged from its areas' (each declares its own beside
 * its migrations and adds them here).
 */
export interface ReportingTables extends DashboardTables, BoardTables, AuditTables {}
