import type { PushMessage } from '@filiere/projections';

/**
 * The push types the suppliers area publishes: a supplier was registered, changed,
 * deactivated or reactivated (data: `{ supplierId }`), sent to those who see it in their
 * list (administrators; the cluster's manager and aggregator). The web's typed table
 * (web/src/shared/realtime) refreshes the suppliers queries.
 */
export const SUPPLIER_PUSHES = ['actors.supplier.changed'] as const;
export type SupplierPushType = (typeof SUPPLIER_PUSHES)[number];

/** A push of the suppliers area: an undeclared type does not compile. */
export const supplierPush = (msg: PushMessage & { type: SupplierPushType }): PushMessage => msg;
