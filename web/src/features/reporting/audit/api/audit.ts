import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import { PAGE_SIZE } from '../../../../shared/search/list-search.js';

/** `GET audit/integrity` (services/api/src/reporting/audit/http.ts). */
export interface Integrity {
  status: 'OK' | 'BROKEN';
  lastVerifiedPosition: number;
  verifiedAt: string | null;
  brokenAt: number | null;
  reason: string | null;
  brokenDetectedAt: string | null;
  headPosition: number;
  sweeps: number;
}

export interface WalletAccount {
  walletId: string;
  userId: string;
  firstname: string;
  lastname: string;
  email: string | null;
  role: string;
  balance: number;
  availableBalance: number;
}

/** Every key starts with 'audit': the `audit.integrity` push refreshes them. */
export const integrityQuery = queryOptions({
  queryKey: ['audit', 'integrity'] as const,
  queryFn: () => api<Integrity>('/audit/integrity'),
});

export const walletAccountsQuery = (page: number, q: string | undefined) =>
  queryOptions({
    queryKey: ['audit', 'wallets', page, q ?? ''] as const,
    queryFn: () =>
      api<{ data: WalletAccount[]; count: number }>('/wallet/accounts', {
        query: { page, limit: PAGE_SIZE, q },
      }),
    placeholderData: keepPreviousData,
  });
