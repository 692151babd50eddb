import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, command } from '../../../shared/api/client.js';
import type { IdempotencyKey } from '../../../shared/api/idempotency.js';
import { toPage } from '../../../shared/auth/user.js';
import { pageParams, type ListQuery } from '../../../shared/search/list-search.js';
import type { TransactionStatus } from '../model/search.js';
import type { ApiResponse } from '../../../shared/api/types.js';
import type { Financing } from '../model/types.js';

export const financingsQuery = (userId: string, search: ListQuery<TransactionStatus>) =>
  queryOptions({
    queryKey: ['financement', 'list', userId, search],
    queryFn: async () => {
      const page = toPage(
        await api<ApiResponse<'/api/financement/user/{id}'>>(
          `/financement/user/${encodeURIComponent(userId)}`,
          { query: pageParams(search) },
        ),
      );
      const data: Financing[] = page.data.map((f) => ({ ...f, id: f.reference }));
      return { ...page, data };
    },
    placeholderData: keepPreviousData,
  });

export const aggregatorsQuery = (q: string) =>
  queryOptions({
    queryKey: ['users', 'industrials', q],
    queryFn: async () =>
      toPage(
        await api<ApiResponse<'/api/users/industrials'>>('/users/industrials', { query: { q } }),
      ).data,
    staleTime: 30_000,
  });

export function createFinancing(
  input: { aggregatorId: string; amount: number },
  key: IdempotencyKey,
) {
  return command<ApiResponse<'/api/financement', 'post'>>('/financement', key, { body: input });
}
