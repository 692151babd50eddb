import type { EventDefinition, StreamType } from '@filiere/event-store';
import type { MigrationSet } from '@filiere/platform';
import type { Projector } from '@filiere/projections';
import type { DemoStep, HttpRegistration, JobModule } from '../kernel/module.js';

/**
 * One area of the reporting context: the dashboard's figures (dashboard/: `contracts/stats`,
 * the cards and monthly series), the super admin's reporting board (board/:
 * `reporting/growers-stats`, `reporting/transactions-stats`, the .xlsx) and the auditor's
 * view of the ledger (audit/: the hash chain's integrity, verified in the background).
 * Each has its own folder, tables, migrations, projectors and lazy routes, merged into the
 * one reporting module by reporting/index.ts. Reporting reads what the other contexts
 * append (their events, through projectors) and never writes their streams.
 */
export interface ReportingArea {
  name: string;
  /** Names `20261127_0NNN_<what>`: the block of each area is in reporting/index.ts. */
  migrations: MigrationSet;
  events?: readonly EventDefinition<string, any>[];
  streams?: readonly StreamType<any>[];
  projectors?: readonly Projector[];
  jobs?: readonly JobModule[];
  pushes?: readonly string[];
  demo?: readonly DemoStep[];
  /** Registers the area's routes (under /api) on the app. */
  http?: () => Promise<HttpRegistration>;
}
