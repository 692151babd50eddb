import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import type { ApiResponse, RowOf } from '../../../../shared/api/types.js';
import { PAGE_SIZE } from '../../../../shared/search/list-search.js';

/**
 * Input supply contracts (FOURNITURE_INTRANT): an industrial's provider assignments of a
 * season, served by the seasons' inputs area (services/api/src/seasons/inputs) on the
 * contracts' paths: `contracts/smarts/{userId}/FOURNITURE_INTRANT` and
 * `contracts/input-supply/{id}`.
 */
type SupplyContracts = ApiResponse<'/api/contracts/smarts/{userId}/FOURNITURE_INTRANT'>;

/**
 * A row: `rightSide` is the provider (for the industrial's list) or the industrial (for a
 * provider's); `meta` gives kg as text and F CFA.
 */
export type SupplyContractRow = RowOf<SupplyContracts>;

export type SupplyContract = ApiResponse<'/api/contracts/input-supply/{id}'>;

export type Party = SupplyContract['provider'];

export const supplyKeys = { all: ['contracts', 'input-supply'] as const };

export const supplyContractsQuery = (
  userId: string,
  search: { page?: number | undefined; q?: string | undefined },
) =>
  queryOptions({
    queryKey: [...supplyKeys.all, 'list', userId, search],
    queryFn: () =>
      api<SupplyContracts>(`/contracts/smarts/${encodeURIComponent(userId)}/FOURNITURE_INTRANT`, {
        query: { page: search.page ?? 1, limit: PAGE_SIZE, q: search.q },
      }),
    placeholderData: keepPreviousData,
  });

export const supplyContractQuery = (id: string) =>
  queryOptions({
    queryKey: [...supplyKeys.all, 'detail', id],
    queryFn: () => api<SupplyContract>(`/contracts/input-supply/${encodeURIComponent(id)}`),
  });
