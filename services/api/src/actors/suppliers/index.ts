import type { ActorsArea } from '../area.js';
import { supplierEvents, supplierStream } from './catalogue.js';
import { suppliersDemoStep } from './demo/suppliers.js';
import { suppliersMigrations } from './migrations/index.js';
import { SUPPLIER_PUSHES } from './pushes.js';

/**
 * The input suppliers area of the actors context (fournisseurs d'intrant): the supplier's
 * organisation and representative (through identity's members), its delivery points and
 * the fertilizers it supplies, and the fertilizer catalogue the seasons use
 * (`clusters/fertilizer-types`).
 */
export const suppliersArea: ActorsArea = {
  name: 'suppliers',
  migrations: suppliersMigrations,
  events: supplierEvents,
  streams: [supplierStream],
  pushes: SUPPLIER_PUSHES,
  demo: [suppliersDemoStep],
  http: async () => (await import('./http/index.js')).registerSuppliers,
};
