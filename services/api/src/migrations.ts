import { product } from './modules.js';

/**
 * Every table of the product: the engine's (platform 00xx, event store 01xx, projections
 * 02xx) and each module's (identity 03xx, wallet read model 025x, wallet 04xx). Names start
 * with a date and a block number so the merged set sorts in writing order.
 */
export const allMigrations = product.migrations;
