import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import { PAGE_SIZE } from '../../../../shared/search/list-search.js';

/**
 * The advance families (services/api/src/contracts/advances), read from the growers' debts:
 * `contracts/smarts/{userId}/{family}` and an advance's recoveries.
 */
export const ADVANCE_KINDS = [
  'AVANCE_SUR_INTRANT',
  'AVANCE_SUR_ANANAS',
  'FINANCEMENT_SOCIAL',
] as const;
export type AdvanceKind = (typeof ADVANCE_KINDS)[number];

export interface AdvanceRow {
  id: string;
  reference: string;
  kind: AdvanceKind;
  status: 'OPEN' | 'REPAID';
  createdAt: string;
  growerId: string;
  growerReference: string;
  rightSide: { id: string; firstname: string; lastname: string };
  meta: { amount: number; recovered: number; remaining: number };
}

export interface Recovery {
  contractId: string;
  reference: string | null;
  amount: number;
  recoveredAt: string;
}

export const advancesQuery = (
  userId: string,
  kind: AdvanceKind,
  search: { page?: number | undefined; q?: string | undefined; status?: string | undefined },
) =>
  queryOptions({
    queryKey: ['contracts', 'advances', kind, userId, search],
    queryFn: () =>
      api<{ data: AdvanceRow[]; count: number }>(
        `/contracts/smarts/${encodeURIComponent(userId)}/${kind}`,
        {
          query: {
            page: search.page ?? 1,
            limit: PAGE_SIZE,
            q: search.q,
            filters: search.status ?? 'all',
          },
        },
      ),
    placeholderData: keepPreviousData,
  });

export const recoveriesQuery = (advanceId: string, page: number) =>
  queryOptions({
    queryKey: ['contracts', 'advances', 'recoveries', advanceId, page],
    queryFn: () =>
      api<{ advance: AdvanceRow; data: Recovery[]; count: number }>(
        `/contracts/advances/${encodeURIComponent(advanceId)}/recoveries`,
        { query: { page, limit: PAGE_SIZE } },
      ),
    placeholderData: keepPreviousData,
  });
