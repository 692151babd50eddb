import type { MigrationSet } from '@filiere/platform';
import * as inputSuppliers from './20261125_0630_input_suppliers.js';

/** Block 0630–0639 (actors/index.ts lists each area's block). */
export const suppliersMigrations: MigrationSet = {
  '20261125_0630_input_suppliers': inputSuppliers,
};
