import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.js';
import type { ApiResponse, RowOf } from '../../../shared/api/types.js';

/** `GET wallet/holds`: available + held = total, and a page of what holds the money. */
export type WalletHolds = ApiResponse<'/api/wallet/holds'>;
export type WalletHold = RowOf<WalletHolds>;
export type HoldKind = WalletHold['kind'];

/** Under `['wallet']`: a `wallet.updated` push refreshes it with the balance. */
export const walletHoldsQuery = (page: number) =>
  queryOptions({
    queryKey: ['wallet', 'holds', page],
    queryFn: () => api<WalletHolds>(`/wallet/holds?page=${page}&limit=5`),
    placeholderData: keepPreviousData,
  });
