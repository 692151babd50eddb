import { z } from 'zod';
import { enumParam, listSearch } from '../../../shared/search/list-search.js';

/** Search params of the wallet lists, zod-typed in the URL (bad values fall back to defaults). */
export const TRANSACTION_STATUSES = ['SUCCESS', 'FAILED'] as const;
export const SUPPLY_STATUSES = ['INIT', 'PENDING', 'SUCCESS', 'FAILED'] as const;
export const SUPPLY_TABS = ['momo-card', 'bank'] as const;

export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export type SupplyStatus = (typeof SUPPLY_STATUSES)[number];
export type SupplyTab = (typeof SUPPLY_TABS)[number];

export const transactionListSearch = listSearch({
  status: enumParam(TRANSACTION_STATUSES),
  year: z.coerce.number().int().min(2000).max(2100).optional().catch(undefined),
});

export const supplyListSearch = listSearch({
  status: enumParam(SUPPLY_STATUSES),
  tab: enumParam(SUPPLY_TABS),
  showModal: z
    .union([z.literal(1), z.literal('1'), z.literal(true), z.literal('true')])
    .transform(() => 1 as const)
    .optional()
    .catch(undefined),
  /** The sandbox widget's return: `?transactionId=…&reference=…&status=…`. */
  transactionId: z.string().min(1).max(200).optional().catch(undefined),
  reference: z.string().min(1).max(100).optional().catch(undefined),
});

export const adminSupplySearch = listSearch({ status: enumParam(SUPPLY_STATUSES) });

export type TransactionListSearch = z.infer<typeof transactionListSearch>;
export type SupplyListSearch = z.infer<typeof supplyListSearch>;
export type AdminSupplySearch = z.infer<typeof adminSupplySearch>;
