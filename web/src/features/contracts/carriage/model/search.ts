import type { z } from 'zod';
import { enumParam, listSearch } from '../../../../shared/search/list-search.js';

/** The carriage contracts' statuses (the server's). */
export const CARRIAGE_STATUSES = ['CREATED', 'PAID', 'CANCELED'] as const;
export type CarriageStatus = (typeof CARRIAGE_STATUSES)[number];

export const carriageSearch = listSearch({ status: enumParam(CARRIAGE_STATUSES) });
export type CarriageSearch = z.infer<typeof carriageSearch>;
