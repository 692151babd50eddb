import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, command } from '../../../shared/api/client.js';
import type { IdempotencyKey } from '../../../shared/api/idempotency.js';
import { toPage, type Page } from '../../../shared/auth/user.js';
import { pageParams, type ListQuery } from '../../../shared/search/list-search.js';
import type { TransactionStatus } from '../model/search.js';
import type { Aggregator, Financing } from '../model/types.js';

export const financingsQuery = (userId: string, search: ListQuery<TransactionStatus>) =>
  queryOptions({
    queryKey: ['financement', 'list', userId, search],
    queryFn: async () => {
      const page = toPage(
        await api<Page<Financing> | Financing[]>(
          `/financement/user/${encodeURIComponent(userId)}`,
          { query: pageParams(search) },
        ),
      );
      return { ...page, data: page.data.map((f) => ({ ...f, id: f.id ?? f.reference })) };
    },
    placeholderData: keepPreviousData,
  });

export const aggregatorsQuery = (q: string) =>
  queryOptions({
    queryKey: ['users', 'industrials', q],
    queryFn: async () =>
      toPage(await api<Page<Aggregator> | Aggregator[]>('/users/industrials', { query: { q } }))
        .data,
    staleTime: 30_000,
  });

export function createFinancing(
  input: { aggregatorId: string; amount: number },
  key: IdempotencyKey,
) {
  return command<Financing>('/financement', key, { body: input });
}
