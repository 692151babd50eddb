import type { z } from 'zod';
import { enumParam, listSearch, textParam } from '../../../../shared/search/list-search.js';

/** The advances' filter: still owed, or repaid in full by delivery contracts. */
export const ADVANCE_FILTERS = ['open', 'repaid'] as const;
export type AdvanceFilter = (typeof ADVANCE_FILTERS)[number];

/** `aggregator` (super admin, admin): the creditor whose advances are listed. */
export const advancesSearch = listSearch({
  status: enumParam(ADVANCE_FILTERS),
  aggregator: textParam,
});
export type AdvancesSearch = z.infer<typeof advancesSearch>;

export const recoveriesSearch = listSearch({});
export type RecoveriesSearch = z.infer<typeof recoveriesSearch>;
