import type { z } from 'zod';
import { enumParam, listSearch, textParam } from '../../../../shared/search/list-search.js';

/** The sub-contracts' filters (§2.5): all / waiting / ready / executed / out of time. */
export const SUB_FILTERS = ['waiting', 'ready', 'executed', 'outtime'] as const;
export type SubFilter = (typeof SUB_FILTERS)[number];

/** `aggregator` (super admin, admin): the aggregator whose parent contracts are listed. */
export const parentsSearch = listSearch({ aggregator: textParam });
export type ParentsSearch = z.infer<typeof parentsSearch>;

export const subContractsSearch = listSearch({ status: enumParam(SUB_FILTERS) });
export type SubContractsSearch = z.infer<typeof subContractsSearch>;

export const previewSearch = listSearch({});
export type PreviewSearch = z.infer<typeof previewSearch>;

export const createSearch = listSearch({ tab: enumParam(['file', 'growers']) });
export type CreateSearch = z.infer<typeof createSearch>;

/** Badge colours of the contract statuses. */
export const STATUS_KIND = {
  PENDING: 'warning',
  CONFIRMED: 'colorize',
  DELIVERED: 'success',
  COMPLETED: 'success',
  OUTTIME: 'danger',
  CANCELED: 'danger',
} as const;
