import type { EventStoreTables } from '@filiere/event-store';
import type { PlatformTables } from '@filiere/platform';
import type { ProjectionCheckpointTables } from '@filiere/projections';
import type { ActorsTables } from './actors/index.js';
import type { ContractsTables } from './contracts/index.js';
import type { IdentityTables } from './identity/index.js';
import type { LocationsTables } from './locations/index.js';
import type { MessagingTables } from './messaging/index.js';
import type { ReportingTables } from './reporting/index.js';
import type { SeasonsTables } from './seasons/index.js';
import type { ReconciliationTables } from './reconciliation/index.js';
import type { SitesTables } from './sites/index.js';
import type { WalletTables } from './wallet/index.js';

/**
 * The product's database, merged from the tables each owner declares beside its migrations:
 * platform, the event store, the projection engine, then each context (as in modules.ts).
 * Adding a context's tables is one line here.
 */
export type Database = PlatformTables &
  EventStoreTables &
  ProjectionCheckpointTables &
  IdentityTables &
  LocationsTables &
  ActorsTables &
  SeasonsTables &
  ContractsTables &
  SitesTables &
  ReportingTables &
  ReconciliationTables &
  MessagingTables &
  WalletTables;

/**
 * The kernel's `ProductTables` (what `AppDeps.db`, `JobContext.db` and `DemoContext.db`
 * carry) is this database: the kernel cannot import the contexts, so their tables are
 * merged into its interface from here. modules.ts re-exports `Database`, so every program
 * that loads the contexts (the API, the worker, the scripts) sees the merge.
 */
declare module './kernel/tables.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface ProductTables extends Database {}
}
