import type { EventStoreTables } from '@filiere/event-store';
import type { PlatformTables } from '@filiere/platform';
import type { ProjectionCheckpointTables } from '@filiere/projections';

/**
 * The product's database as the kernel hands it to the contexts (`AppDeps.db`,
 * `JobContext.db`, `DemoContext.db`). The kernel sits below the contexts and cannot name
 * their tables: it declares the engine's here, and `services/api/src/database.ts` (the app
 * level, beside the module list) merges every context's into this interface, so that it is
 * exactly `Database`. A context reads it through its own tables only:
 * `narrowDb<WalletDb>()(app.deps.db)`, which compiles only if `Database` holds them.
 */
export interface ProductTables
  extends PlatformTables, EventStoreTables, ProjectionCheckpointTables {}
