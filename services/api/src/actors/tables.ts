import type { CarriersTables } from './carriers/tables.js';
import type { ClustersTables } from './clusters/tables.js';
import type { CooperativesTables } from './cooperatives/tables.js';
import type { GrowersTables } from './growers/tables.js';
import type { PayoutTables } from './payout/tables.js';
import type { SuppliersTables } from './suppliers/tables.js';

/** Every table of the actors context, merged from its areas (each declares its own). */
export type ActorsTables = CooperativesTables &
  GrowersTables &
  CarriersTables &
  SuppliersTables &
  ClustersTables &
  PayoutTables;
