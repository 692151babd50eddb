import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.js';

export interface WalletStats {
  balance: number;
  availableBalance: number;
  lastTransactionAmout: number | null;
  lastTransactionDate: string | null;
}

/** Wallet stats; until the wallet API answers, the card shows '—' (no error toast). */
export const walletStatsQuery = queryOptions({
  queryKey: ['wallet', 'stats'],
  queryFn: () => api<WalletStats>('/wallet/stats'),
  retry: false,
  meta: { silent: true },
});
