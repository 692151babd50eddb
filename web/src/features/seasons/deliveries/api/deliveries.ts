import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, command } from '../../../../shared/api/client.js';
import type { IdempotencyKey } from '../../../../shared/api/idempotency.js';
import { PAGE_SIZE, type ListSearch } from '../../../../shared/search/list-search.js';

/**
 * Deliveries by grower code (spec seasons §2.11, §7 "Deliveries by code";
 * services/api/src/seasons/deliveries/http).
 */
export interface DeliveryRow {
  id: number;
  reference: string;
  grower: { id: string; firstname: string; lastname: string; phone: string | null };
  fertilizer: { id: number; label: string; type: { id: number; label: string } };
  aggregator: { id: string; firstname: string; lastname: string };
  quantity: number;
  amount: number;
  status: 'CREATED' | 'DONE';
  receivedAt: string | null;
  createdAt: string;
}

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
      api<{ data: DeliveryRow[]; count: number }>(`/input-provider/growers-request/${userId}`, {
        query: { page: search.page ?? 1, limit: PAGE_SIZE, q: search.q },
      }),
    placeholderData: keepPreviousData,
    enabled: userId.length > 0,
  });

/** `GET input-provider/find-by-code/{code}`: 404 is the incorrect code. */
export const findByCode = (code: string) =>
  api<{ isOk: true; request: DeliveryRow }>(
    `/input-provider/find-by-code/${encodeURIComponent(code)}`,
  );

/**
 * `POST input-provider/make-delivery/{id}` with the grower's code (its proof of delivery: the
 * server pays nothing without it): pays the provider, once.
 */
export const makeDelivery = (requestId: number, code: string, key: IdempotencyKey) =>
  command<{ message: string }>(`/input-provider/make-delivery/${requestId}`, key, {
    body: { code },
  });
