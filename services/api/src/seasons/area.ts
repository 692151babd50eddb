import type { EventDefinition, StreamType } from '@filiere/event-store';
import type { MigrationSet } from '@filiere/platform';
import type { Projector } from '@filiere/projections';
import type { DemoStep, HttpRegistration, JobModule } from '../kernel/module.js';

/**
 * One area of the seasons context beside its core (seasons and their industrials):
 * input providers' assignments (inputs/), growers' requests (requests/), deliveries by
 * grower code (deliveries/). Each has its own folder, tables, migrations, streams and lazy
 * routes, merged into the one seasons module by seasons/index.ts.
 */
export interface SeasonsArea {
  name: string;
  /** Names `20261126_0NNN_<what>`: the block of each area is in seasons/index.ts. */
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
