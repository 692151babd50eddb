import type { z } from 'zod';
import { listSearch, textParam } from '../../../../shared/search/list-search.js';

/**
 * `?page=&q=&aggregator=`: the input supply contracts' URL state; `aggregator` (super admin,
 * admin) is the industrial whose contracts are listed.
 */
export const supplySearch = listSearch({ aggregator: textParam });
export type SupplySearch = z.infer<typeof supplySearch>;
