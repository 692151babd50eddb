import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.js';
import { toPage } from '../../../shared/auth/user.js';
import { pageParams, type ListQuery } from '../../../shared/search/list-search.js';
import type { TransactionStatus } from '../model/search.js';
import type { ApiResponse } from '../../../shared/api/types.js';
import type { Direction, TransactionDetail } from '../model/types.js';
import { downloadSpreadsheet } from './export.js';

/** The caller's transactions; `direction` OUT: only what it paid ('Paiements effectués'). */
export const transactionsQuery = (search: ListQuery<TransactionStatus>, direction?: Direction) =>
  queryOptions({
    queryKey: ['transaction', 'list', search, direction ?? 'ALL'],
    queryFn: async () =>
      toPage(
        await api<ApiResponse<'/api/transaction'>>('/transaction', {
          query: { ...pageParams(search), direction },
        }),
      ),
    placeholderData: keepPreviousData,
  });

export const transactionQuery = (id: string) =>
  queryOptions({
    queryKey: ['transaction', 'one', id],
    queryFn: () => api<TransactionDetail>(`/transaction/${encodeURIComponent(id)}`),
  });

/** Yearly transaction counts of the wallet chart (`GET wallet/stats/{user}/{year}`). */
export const yearlyStatsQuery = (walletId: string, year: number) =>
  queryOptions({
    queryKey: ['wallet', 'stats', walletId, year],
    queryFn: () => api<unknown>(`/wallet/stats/${encodeURIComponent(walletId)}/${year}`),
    meta: { silent: true },
  });

/** False when there was nothing to export. */
export function exportTransactions(userId: string): Promise<boolean> {
  return downloadSpreadsheet(
    `/transaction/user/${encodeURIComponent(userId)}/export/xlsx`,
    'transactions.xlsx',
  );
}
