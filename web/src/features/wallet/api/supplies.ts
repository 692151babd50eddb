import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, command } from '../../../shared/api/client.js';
import type { IdempotencyKey } from '../../../shared/api/idempotency.js';
import { toPage, type Page } from '../../../shared/auth/user.js';
import { pageParams, type ListQuery } from '../../../shared/search/list-search.js';
import type { SupplyStatus, SupplyTab } from '../model/search.js';
import type { Supply, SupplyCreated, SupplyStats } from '../model/types.js';

/** Supplies have no id of their own: the reference identifies one. */
const withIds = (page: Page<Supply>): Page<Supply> => ({
  ...page,
  data: page.data.map((s) => ({ ...s, id: s.id ?? s.reference })),
});

export const supplyStatsQuery = (userId: string) =>
  queryOptions({
    queryKey: ['supply', 'stats', userId],
    queryFn: () => api<SupplyStats>(`/supply/stats/${encodeURIComponent(userId)}`),
  });

export const suppliesQuery = (userId: string, tab: SupplyTab, search: ListQuery<SupplyStatus>) =>
  queryOptions({
    queryKey: ['supply', 'list', userId, tab, search],
    queryFn: async () =>
      withIds(
        toPage(
          await api<Page<Supply> | Supply[]>(`/supply/${tab}/${encodeURIComponent(userId)}`, {
            query: pageParams(search),
          }),
        ),
      ),
    placeholderData: keepPreviousData,
  });

/** The super admin's list of bank supplies. */
export const bankSuppliesQuery = (search: ListQuery<SupplyStatus>) =>
  queryOptions({
    queryKey: ['supply', 'admin', search],
    queryFn: async () =>
      withIds(
        toPage(
          await api<Page<Supply> | Supply[]>('/supply', {
            query: { ...pageParams(search), type: 'BANK' },
          }),
        ),
      ),
    placeholderData: keepPreviousData,
  });

export interface SupplyInput {
  amount: number;
  walletId: string | null;
  accountType: 'BANK' | 'MOBILE_MONEY';
  bank?: string;
}

export function createSupply(input: SupplyInput, key: IdempotencyKey): Promise<SupplyCreated> {
  return command<SupplyCreated>('/supply', key, { body: input });
}

/** After the widget reports success: the server verifies with the provider and credits once. */
export function verifySupply(
  transactionId: string,
  reference: string | undefined,
  key: IdempotencyKey,
): Promise<Supply> {
  const query = reference ? `?reference=${encodeURIComponent(reference)}` : '';
  return command<Supply>(`/supply/verify/${encodeURIComponent(transactionId)}${query}`, key, {
    method: 'GET',
  });
}

/** Super admin: validates a bank supply by its retyped reference. */
export function validateBankSupply(supply: Supply, reference: string, key: IdempotencyKey) {
  return command<Supply>('/supply/validate-bank-supply', key, {
    body: { reference, supplyReference: supply.reference },
  });
}

/** The one bank accepted for supplies by transfer, as configured on the server. */
export interface AcceptedBank {
  accountNumber: string;
  bankName: string;
}

/**
 * `GET supply/bank-account` (server: SUPPLY_BANK_NAME / SUPPLY_BANK_ACCOUNT). Outside the
 * `['supply']` prefix: supply pushes do not refetch it; it changes only with a restart.
 */
export const bankAccountQuery = () =>
  queryOptions({
    queryKey: ['bank-account'],
    queryFn: () => api<AcceptedBank>('/supply/bank-account'),
    staleTime: Infinity,
  });
