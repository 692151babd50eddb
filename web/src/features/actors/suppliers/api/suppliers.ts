import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import type { ApiBody, ApiResponse, RowOf } from '../../../../shared/api/types.js';
import { PAGE_SIZE, type ListSearch } from '../../../../shared/search/list-search.js';

/**
 * The input suppliers' calls (spec actors-contracts-admin §7 "Input suppliers",
 * services/api/src/actors/suppliers/http): list, detail, create, update, deactivate,
 * reactivate, and the fertilizer catalogue.
 */

/** The two banks the forms offer (spec §3). */
export const BANKS = ['Ecobank Bénin', 'Orabank Bénin'] as const;

export type SupplierStatus = 'active' | 'inactive';
export const SUPPLIER_STATUSES: readonly SupplierStatus[] = ['active', 'inactive'];

export type SupplierListItem = RowOf<ApiResponse<'/api/input-provider'>>;
/** `GET input-provider/{id}`. */
export type Supplier = ApiResponse<'/api/input-provider/{id}'>;
export type DeliveryPoint = Supplier['locations'][number];
export type Fertilizer = Supplier['fertilizers'][number];
export type FertilizerType = RowOf<ApiResponse<'/api/clusters/fertilizer-types'>>;

type SupplierBody = ApiBody<'/api/input-provider'>;
/**
 * The create form's body (the edit sends it without the payout accounts). The form holds the
 * bank as the text of its select; the server accepts only its two banks.
 */
export type SupplierInput = Omit<SupplierBody, 'accountInfo' | 'momoInfo'> & {
  accountInfo?: { providerName: string; accountNumber: string };
  momoInfo?: SupplierBody['momoInfo'];
};
export type DeliveryPointInput = SupplierInput['locations'][number];

export type SuppliersSearch = ListSearch<SupplierStatus>;

export const supplierKeys = { all: ['input-provider'] as const };

export const suppliersQuery = (search: SuppliersSearch) =>
  queryOptions({
    queryKey: [...supplierKeys.all, 'list', search],
    queryFn: () =>
      api<ApiResponse<'/api/input-provider'>>('/input-provider', {
        query: {
          page: search.page ?? 1,
          limit: PAGE_SIZE,
          q: search.q,
          status: search.status,
        },
      }),
    placeholderData: keepPreviousData,
  });

export const supplierQuery = (id: string) =>
  queryOptions({
    queryKey: [...supplierKeys.all, 'detail', id],
    queryFn: () => api<Supplier>(`/input-provider/${id}`),
    retry: false,
  });

export const fertilizerTypesQuery = queryOptions({
  queryKey: ['fertilizers', 'types'],
  queryFn: () => api<ApiResponse<'/api/clusters/fertilizer-types'>>('/clusters/fertilizer-types'),
  staleTime: Infinity,
});

export const fertilizersQuery = (typeId: string) =>
  queryOptions({
    queryKey: ['fertilizers', 'of-type', typeId],
    queryFn: () =>
      api<ApiResponse<'/api/clusters/fertilizer-types/{type}'>>(
        `/clusters/fertilizer-types/${typeId}`,
      ),
    staleTime: Infinity,
  });

export const createSupplier = (body: SupplierInput) =>
  api<ApiResponse<'/api/input-provider', 'post'>>('/input-provider', { method: 'POST', body });

export const updateSupplier = (id: string, body: Omit<SupplierInput, 'accountInfo' | 'momoInfo'>) =>
  api<ApiResponse<'/api/input-provider/{id}', 'patch'>>(`/input-provider/${id}`, {
    method: 'PATCH',
    body,
  });

export const deactivateSupplier = (id: string) =>
  api<ApiResponse<'/api/input-provider/{id}', 'delete'>>(`/input-provider/${id}`, {
    method: 'DELETE',
  });

export const reactivateSupplier = (id: string) =>
  api<ApiResponse<'/api/input-provider/{id}/reactivate', 'post'>>(
    `/input-provider/${id}/reactivate`,
    { method: 'POST' },
  );
