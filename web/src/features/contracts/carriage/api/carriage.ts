import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, command } from '../../../../shared/api/client.js';
import type { IdempotencyKey } from '../../../../shared/api/idempotency.js';
import type { ApiBody, ApiResponse, RowOf } from '../../../../shared/api/types.js';
import { toPage } from '../../../../shared/auth/user.js';
import { PAGE_SIZE } from '../../../../shared/search/list-search.js';
import type { CarriageSearch } from '../model/search.js';

/** Carriage contracts (services/api/src/contracts/carriage): `contracts/carriage-contract`. */
type CarriageList = ApiResponse<'/api/contracts/carriage-contract'>;

export type CarriageRow = RowOf<CarriageList>;

export type CarriageAnswer = ApiResponse<'/api/contracts/carriage-contract', 'post'>;

/** Every key starts with 'contracts' so the `contracts.updated` push refreshes them. */
export const carriageKeys = {
  all: ['contracts', 'carriage'] as const,
  list: (search: CarriageSearch) => ['contracts', 'carriage', 'list', search] as const,
  carriers: (q: string) => ['contracts', 'carriage', 'carriers', q] as const,
};

export const carriageListQuery = (search: CarriageSearch) =>
  queryOptions({
    queryKey: carriageKeys.list(search),
    queryFn: () =>
      api<CarriageList>('/contracts/carriage-contract', {
        query: { page: search.page ?? 1, limit: PAGE_SIZE, q: search.q, status: search.status },
      }),
    placeholderData: keepPreviousData,
  });

/** The carriers to choose from (name or phone), with their vehicles. */
export type CarrierChoice = RowOf<ApiResponse<'/api/carrier'>>;

export const carrierChoicesQuery = (q: string) =>
  queryOptions({
    queryKey: carriageKeys.carriers(q),
    queryFn: async () =>
      toPage(
        await api<ApiResponse<'/api/carrier'>>('/carrier', {
          query: { page: 1, limit: 20, q: q || undefined },
        }),
      ),
    placeholderData: keepPreviousData,
  });

export type CreateCarriageBody = ApiBody<'/api/contracts/carriage-contract'>;

export function createCarriageContract(
  body: CreateCarriageBody,
  key: IdempotencyKey,
): Promise<CarriageAnswer> {
  return command<CarriageAnswer>('/contracts/carriage-contract', key, { body });
}

export function cancelCarriageContract(id: string): Promise<CarriageAnswer> {
  return api<CarriageAnswer>(`/contracts/carriage-contract/${encodeURIComponent(id)}`, {
    method: 'DELETE',
  });
}

export function payCarriageContract(id: string): Promise<CarriageAnswer> {
  return api<CarriageAnswer>(`/contracts/carriage-contract/${encodeURIComponent(id)}/pay`, {
    method: 'POST',
  });
}
