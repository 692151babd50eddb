import type { EventDefinition, StreamType } from '@filiere/event-store';
import type { MigrationSet } from '@filiere/platform';
import type { DemoStep, HttpRegistration } from '../kernel/module.js';

/**
 * One area of the actors context (growers and plots, carriers, cooperatives, input
 * suppliers, clusters, payout-account requests): its own folder under actors/, merged into
 * the one actors module by actors/index.ts. Routes stay behind a lazy import so that the
 * worker never loads Fastify.
 */
export interface ActorsArea {
  name: string;
  /** Names `20261125_06NN_<what>`: the block of each area is in actors/index.ts. */
  migrations: MigrationSet;
  events?: readonly EventDefinition<string, any>[];
  streams?: readonly StreamType[];
  pushes?: readonly string[];
  demo?: readonly DemoStep[];
  /** Registers the area's routes (under /api) on the app. */
  http?: () => Promise<HttpRegistration>;
}
