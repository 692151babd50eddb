import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.js';
import { toPage, type Page } from '../../../shared/auth/user.js';
import { pageParams, type ListQuery } from '../../../shared/search/list-search.js';
import type { TransactionStatus } from '../model/search.js';
import type { Transaction, TransactionDetail } from '../model/types.js';
import { downloadSpreadsheet } from './export.js';

export const transactionsQuery = (search: ListQuery<TransactionStatus>) =>
  queryOptions({
    queryKey: ['transaction', 'list', search],
    queryFn: async () =>
      toPage(
        await api<Page<Transaction> | Transaction[]>('/transaction', {
          query: pageParams(search),
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
