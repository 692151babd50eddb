import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, command } from '../../../../shared/api/client.js';
import type { IdempotencyKey } from '../../../../shared/api/idempotency.js';
import type { ApiResponse, RowOf } from '../../../../shared/api/types.js';
import { PAGE_SIZE, type ListSearch } from '../../../../shared/search/list-search.js';

/**
 * Deliveries by grower code (spec seasons §2.11, §7 "Deliveries by code";
 * services/api/src/seasons/deliveries/http).
 */
type Deliveries = ApiResponse<'/api/input-provider/growers-request/{userId}'>;

export type DeliveryRow = RowOf<Deliveries>;

export const deliveryKeys = {
  all: ['season-deliveries'] as const,
  list: (userId: string, search: ListSearch) =>
    ['season-deliveries', 'list', userId, search] as const,
};

/** `GET input-provider/growers-request/{userId}`: 10 a page, searchable. */
export const deliveriesQuery = (userId: string, search: ListSearch) =>
  queryOptions({
    queryKey: deliveryKeys.list(userId, search),
    queryFn: () =>
      api<Deliveries>(`/input-provider/growers-request/${userId}`, {
        query: { page: search.page ?? 1, limit: PAGE_SIZE, q: search.q },
      }),
    placeholderData: keepPreviousData,
    enabled: userId.length > 0,
  });

/** `GET input-provider/find-by-code/{code}`: 404 is the incorrect code. */
export const findByCode = (code: string) =>
  api<ApiResponse<'/api/input-provider/find-by-code/{code}'>>(
    `/input-provider/find-by-code/${encodeURIComponent(code)}`,
  );

/**
 * `POST input-provider/make-delivery/{id}` with the grower's code (its proof of delivery: the
 * server pays nothing without it): pays the provider, once.
 */
export const makeDelivery = (requestId: number, code: string, key: IdempotencyKey) =>
  command<ApiResponse<'/api/input-provider/make-delivery/{requestId}', 'post'>>(
    `/input-provider/make-delivery/${requestId}`,
    key,
    {
      body: { code },
    },
  );
