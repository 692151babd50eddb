import type { EventStoreTables } from '@filiere/event-store';
import type { PlatformTables } from '@filiere/platform';
import type { ProjectionCheckpointTables } from '@filiere/projections';
import type { ActorsTables } from './actors/index.js';
import type { IdentityTables } from './identity/index.js';
import type { LocationsTables } from './locations/index.js';

/**
 * The product's database, merged from the tables each owner declares beside its migrations:
 * platform, the event store, the projection engine, then each context (as in modules.ts).
 * The wallet's tables (jobs, exports, read model) are not declared yet: code that reads them
 * still takes an untyped Kysely (see the issue 11 notes).
 */
export type Database = PlatformTables &
  EventStoreTables &
  ProjectionCheckpointTables &
  IdentityTables &
  LocationsTables &
  ActorsTables;
