import type { z } from 'zod';
import type { BadgeKind } from '../../../../shared/ui/StatusBadge.js';
import { enumParam, listSearch } from '../../../../shared/search/list-search.js';

/** The carriage contracts' statuses (the server's). */
export const CARRIAGE_STATUSES = ['CREATED', 'PAID', 'CANCELED'] as const;
export type CarriageStatus = (typeof CARRIAGE_STATUSES)[number];

/** How a carriage contract's status is shown: to come, paid, cancelled. */
export const CARRIAGE_BADGE: Record<CarriageStatus, BadgeKind> = {
  CREATED: 'warning',
  PAID: 'success',
  CANCELED: 'danger',
};

export const carriageSearch = listSearch({ status: enumParam(CARRIAGE_STATUSES) });
export type CarriageSearch = z.infer<typeof carriageSearch>;
