import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.js';

export type HoldKind = 'DELIVERY_CONTRACT' | 'CARRIAGE_CONTRACT' | 'INPUT_ASSIGNMENT' | 'OTHER';

export interface WalletHold {
  holdId: string;
  kind: HoldKind;
  /** The record's id for its page (a contract's uuid, an assignment's number). */
  targetId: string | null;
  reference: string;
  amount: number;
  since: string | null;
}

/** `GET wallet/holds`: available + held = total, and a page of what holds the money. */
export interface WalletHolds {
  available: number;
  held: number;
  total: number;
  data: WalletHold[];
  count: number;
}

/** Under `['wallet']`: a `wallet.updated` push refreshes it with the balance. */
export const walletHoldsQuery = (page: number) =>
  queryOptions({
    queryKey: ['wallet', 'holds', page],
    queryFn: () => api<WalletHolds>(`/wallet/holds?page=${page}&limit=5`),
    placeholderData: keepPreviousData,
  });
