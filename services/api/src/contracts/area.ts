import type { EventDefinition, StreamType } from '@filiere/event-store';
import type { MigrationSet } from '@filiere/platform';
import type { Projector } from '@filiere/projections';
import type { DemoStep, HttpRegistration } from '../kernel/module.js';

/**
 * One area of the contracts context beside its core (delivery contracts, debts, the run):
 * parent contracts made many at a time (batches/) and the advance families read from the
 * growers' debts (advances/). Each has its own folder, tables, migrations and lazy routes,
 * merged into the one contracts module by contracts/index.ts (migration block 20261126_07NN).
 */
export interface ContractsArea {
  name: string;
  migrations: MigrationSet;
  events?: readonly EventDefinition<string, any>[];
  streams?: readonly StreamType<any>[];
  projectors?: readonly Projector[];
  demo?: readonly DemoStep[];
  /** Registers the area's routes (under /api) on the app. */
  http?: () => Promise<HttpRegistration>;
}
