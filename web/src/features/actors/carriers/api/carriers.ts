import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import type { ApiBody, ApiResponse, RowOf } from '../../../../shared/api/types.js';
import { toPage } from '../../../../shared/auth/user.js';
import { PAGE_SIZE, type ListSearch } from '../../../../shared/search/list-search.js';

/**
 * The carriers' calls (spec actors-contracts-admin §7 "Carriers",
 * services/api/src/actors/carriers/http): list, detail, create, edit, deactivate and
 * reactivate, the carrier's contracts, the download.
 */

export const CAR_TYPES = [
  'BACHEE',
  'TERCEL',
  'VOITURE_4_ROUES',
  'CAMIONNETTE',
  'TRICYCLE',
  'PICK_UP',
  'CAMION',
] as const;
export type CarType = (typeof CAR_TYPES)[number];

/** Default capacities in Kg (spec §3): 1000, the TERCEL 2000. */
export const DEFAULT_CAPACITY_KG: Record<CarType, number> = {
  BACHEE: 1000,
  TERCEL: 2000,
  VOITURE_4_ROUES: 1000,
  CAMIONNETTE: 1000,
  TRICYCLE: 1000,
  PICK_UP: 1000,
  CAMION: 1000,
};

export type CarrierStatus = 'active' | 'inactive';
export const CARRIER_STATUSES: readonly CarrierStatus[] = ['active', 'inactive'];

/** `GET carrier/{id}` (and what its commands answer). */
export type Carrier = ApiResponse<'/api/carrier/{id}'>;
export type Car = Carrier['cars'][number];

/**
 * The form holds the bank as the text of its select; the server accepts only its two banks
 * (`accountInfo.providerName`, a 400 naming the field otherwise).
 */
export type CreateCarrierInput = Omit<ApiBody<'/api/carrier'>, 'accountInfo'> & {
  accountInfo: { providerName: string; accountNumber: string };
};
export type UpdateCarrierInput = ApiBody<'/api/carrier/{id}', 'patch'>;
export type CarrierUserInput = CreateCarrierInput['user'];
export type CarInput = NonNullable<CreateCarrierInput['cars']>[number];

export type CarriersSearch = ListSearch<CarrierStatus>;

export const carrierKeys = {
  all: ['carriers'] as const,
  list: (search: CarriersSearch) => ['carriers', 'list', search] as const,
  detail: (id: string) => ['carriers', 'detail', id] as const,
  contracts: (id: string, search: ListSearch<never>) =>
    ['carriers', 'contracts', id, search] as const,
};

export const carriersQuery = (search: CarriersSearch) =>
  queryOptions({
    queryKey: carrierKeys.list(search),
    queryFn: async () =>
      toPage(
        await api<ApiResponse<'/api/carrier'>>('/carrier', {
          query: {
            page: search.page ?? 1,
            limit: PAGE_SIZE,
            q: search.q,
            status: search.status === 'inactive' ? 'inactive' : undefined,
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

export const carrierQuery = (id: string) =>
  queryOptions({
    queryKey: carrierKeys.detail(id),
    queryFn: () => api<Carrier>(`/carrier/${encodeURIComponent(id)}`),
  });

/** A carriage contract of the carrier (spec §3 "Carrier contract row"). */
export type CarrierContract = RowOf<ApiResponse<'/api/carrier/contracts/{id}'>>;

export const carrierContractsQuery = (id: string, search: ListSearch<never>) =>
  queryOptions({
    queryKey: carrierKeys.contracts(id, search),
    queryFn: async () =>
      toPage(
        await api<ApiResponse<'/api/carrier/contracts/{id}'>>(
          `/carrier/contracts/${encodeURIComponent(id)}`,
          { query: { page: search.page ?? 1, limit: PAGE_SIZE, q: search.q } },
        ),
      ),
    placeholderData: keepPreviousData,
  });

export const createCarrier = (body: CreateCarrierInput) =>
  api<Carrier>('/carrier', { method: 'POST', body });

export const updateCarrier = (id: string, body: UpdateCarrierInput) =>
  api<Carrier>(`/carrier/${encodeURIComponent(id)}`, { method: 'PATCH', body });

export const deactivateCarrier = (id: string) =>
  api<ApiResponse<'/api/carrier/{id}', 'delete'>>(`/carrier/${encodeURIComponent(id)}`, {
    method: 'DELETE',
  });

export const reactivateCarrier = (id: string) =>
  api<Carrier>(`/carrier/${encodeURIComponent(id)}/reactivate`, { method: 'PATCH' });

export const carriersDownloadPath = (userId: string) =>
  `/carrier/download/${encodeURIComponent(userId)}`;
