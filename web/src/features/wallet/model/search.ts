import { z } from 'zod';

/** Search params of the wallet lists, zod-typed in the URL (bad values fall back to defaults). */
const page = z.coerce.number().int().min(1).optional().catch(undefined);
const q = z.string().trim().min(1).optional().catch(undefined);

export const TRANSACTION_STATUSES = ['SUCCESS', 'FAILED'] as const;
export const SUPPLY_STATUSES = ['INIT', 'PENDING', 'SUCCESS', 'FAILED'] as const;
export const SUPPLY_TABS = ['momo-card', 'bank'] as const;

export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export type SupplyStatus = (typeof SUPPLY_STATUSES)[number];
export type SupplyTab = (typeof SUPPLY_TABS)[number];

export const transactionListSearch = z.object({
  page,
  q,
  status: z.enum(TRANSACTION_STATUSES).optional().catch(undefined),
  year: z.coerce.number().int().min(2000).max(2100).optional().catch(undefined),
});

export const supplyListSearch = z.object({
  page,
  q,
  status: z.enum(SUPPLY_STATUSES).optional().catch(undefined),
  tab: z.enum(SUPPLY_TABS).optional().catch(undefined),
  showModal: z
    .union([z.literal(1), z.literal('1'), z.literal(true), z.literal('true')])
    .transform(() => 1 as const)
    .optional()
    .catch(undefined),
  /** The sandbox widget's return: `?transactionId=…&reference=…&status=…`. */
  transactionId: z.string().min(1).max(200).optional().catch(undefined),
  reference: z.string().min(1).max(100).optional().catch(undefined),
});

export const adminSupplySearch = z.object({
  page,
  q,
  status: z.enum(SUPPLY_STATUSES).optional().catch(undefined),
});

export type TransactionListSearch = z.infer<typeof transactionListSearch>;
export type SupplyListSearch = z.infer<typeof supplyListSearch>;
export type AdminSupplySearch = z.infer<typeof adminSupplySearch>;

/** What a list query needs: the page is always set. */
export interface ListQuery<S extends string = string> {
  page: number;
  q?: string;
  status?: S;
}

export const PAGE_SIZE = 10;
