import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import { PAGE_SIZE } from '../../../../shared/search/list-search.js';

/**
 * Input supply contracts (FOURNITURE_INTRANT): an industrial's provider assignments of a
 * season, served by the seasons' inputs area (services/api/src/seasons/inputs) on the
 * contracts' paths: `contracts/smarts/{userId}/FOURNITURE_INTRANT` and
 * `contracts/input-supply/{id}`.
 */
export interface SupplyContractRow {
  id: string;
  reference: string;
  /** ACTIVE | BANNED */
  status: string;
  createdAt: string;
  /** The provider (for the industrial's list) or the industrial (for a provider's). */
  rightSide: { id: string; firstname: string; lastname: string };
  /** Kg as text; F CFA. */
  meta: { quantity: string; remaining: string; amount: number; fertilizer: string };
}

export interface Party {
  userId: string;
  firstname: string;
  lastname: string;
  phone: string | null;
}

export interface SupplyContract {
  id: string;
  reference: string;
  status: string;
  createdAt: string;
  season: { id: number; label: string; fromDate: string; toDate: string };
  industrial: Party;
  provider: Party;
  fertilizer: { label: string; type: string };
  quantity: number;
  deliveredQuantity: number;
  unitAmount: number;
  amount: number;
  deliveredAmount: number;
  remainingAmount: number;
  releasedAmount: number;
}

export const supplyKeys = { all: ['contracts', 'input-supply'] as const };

export const supplyContractsQuery = (
  userId: string,
  search: { page?: number | undefined; q?: string | undefined },
) =>
  queryOptions({
    queryKey: [...supplyKeys.all, 'list', userId, search],
    queryFn: () =>
      api<{ data: SupplyContractRow[]; count: number }>(
        `/contracts/smarts/${encodeURIComponent(userId)}/FOURNITURE_INTRANT`,
        { query: { page: search.page ?? 1, limit: PAGE_SIZE, q: search.q } },
      ),
    placeholderData: keepPreviousData,
  });

export const supplyContractQuery = (id: string) =>
  queryOptions({
    queryKey: [...supplyKeys.all, 'detail', id],
    queryFn: () => api<SupplyContract>(`/contracts/input-supply/${encodeURIComponent(id)}`),
  });
