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

export interface WalletLimits {
  maxCommandAmount: number;
  maxBalance: number;
}

/** The server's money ceilings (configuration: they change only with a restart). */
export const walletLimitsQuery = queryOptions({
  queryKey: ['wallet', 'limits'],
  queryFn: () => api<WalletLimits>('/wallet/limits'),
  staleTime: Infinity,
  meta: { silent: true },
});
