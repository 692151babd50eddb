import type { Kysely } from 'kysely';
import { narrowDb } from '@filiere/platform';
import type { ActorsTables } from '../../actors/index.js';
import type { SeasonsDbTables } from '../tables.js';

// Beside tables.ts rather than in it: seasons/tables.ts merges the areas' tables, so an
// area's tables.ts imports nothing of the core's.
/** What the inputs area's services read: the seasons' tables, the log, the suppliers. */
export type InputsDbTables = SeasonsDbTables &
  Pick<ActorsTables, 'input_suppliers' | 'supplier_fertilizers'>;

export type InputsDb = Kysely<InputsDbTables>;

/** Narrows the product's pool to the inputs area's view of it. */
export const inputsDb = narrowDb<InputsDbTables>();
