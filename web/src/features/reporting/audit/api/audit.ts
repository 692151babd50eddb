import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import type { ApiResponse, RowOf } from '../../../../shared/api/types.js';
import { PAGE_SIZE } from '../../../../shared/search/list-search.js';

/** `GET audit/integrity` (services/api/src/reporting/audit/http.ts). */
export type Integrity = ApiResponse<'/api/audit/integrity'>;
export type WalletAccount = RowOf<ApiResponse<'/api/wallet/accounts'>>;

/** Every key starts with 'audit': the `audit.integrity` push refreshes them. */
export const integrityQuery = queryOptions({
  queryKey: ['audit', 'integrity'] as const,
  queryFn: () => api<Integrity>('/audit/integrity'),
});

export const walletAccountsQuery = (page: number, q: string | undefined) =>
  queryOptions({
    queryKey: ['audit', 'wallets', page, q ?? ''] as const,
    queryFn: () =>
      api<ApiResponse<'/api/wallet/accounts'>>('/wallet/accounts', {
        query: { page, limit: PAGE_SIZE, q },
      }),
    placeholderData: keepPreviousData,
  });
