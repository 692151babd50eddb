import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.js';
import type { ApiResponse } from '../../../shared/api/types.js';

export type WalletStats = ApiResponse<'/api/wallet/stats'>;

/** Wallet stats; until the wallet API answers, the card shows '—' (no error toast). */
export const walletStatsQuery = queryOptions({
  queryKey: ['wallet', 'stats'],
  queryFn: () => api<WalletStats>('/wallet/stats'),
  retry: false,
  meta: { silent: true },
});

export type WalletLimits = ApiResponse<'/api/wallet/limits'>;

/** The server's money ceilings (configuration: they change only with a restart). */
export const walletLimitsQuery = queryOptions({
  queryKey: ['wallet', 'limits'],
  queryFn: () => api<WalletLimits>('/wallet/limits'),
  staleTime: Infinity,
  meta: { silent: true },
});
