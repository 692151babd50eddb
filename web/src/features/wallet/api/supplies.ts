import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, command } from '../../../shared/api/client.js';
import type { IdempotencyKey } from '../../../shared/api/idempotency.js';
import { toPage, type Page } from '../../../shared/auth/user.js';
import { pageParams, type ListQuery } from '../../../shared/search/list-search.js';
import type { SupplyStatus, SupplyTab } from '../model/search.js';
import type { SupplyRow } from '../model/supply-row.js';
import type { ApiBody, ApiResponse } from '../../../shared/api/types.js';
import type { Supply, SupplyCreated, SupplyStats, SupplyWidget } from '../model/types.js';
import { downloadSpreadsheet } from './export.js';

/** Supplies have no id of their own: the reference identifies one. */
const withIds = (page: Page<Omit<SupplyRow, 'id'>>): Page<SupplyRow> => ({
  ...page,
  data: page.data.map((s) => ({ ...s, id: s.reference })),
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
          await api<ApiResponse<'/api/supply/{type}/{userId}'>>(
            `/supply/${tab}/${encodeURIComponent(userId)}`,
            {
              query: pageParams(search),
            },
          ),
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
          await api<ApiResponse<'/api/supply'>>('/supply', {
            query: { ...pageParams(search), type: 'BANK' },
          }),
        ),
      ),
    placeholderData: keepPreviousData,
  });

/** `phone`: the payer's mobile money number for the widget (mobile money only). */
export type SupplyInput = ApiBody<'/api/supply'>;

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

/** 'Réessayer': the widget again for my supply still waiting for its payment (INIT). */
export function supplyWidget(
  reference: string,
): Promise<{ reference: string; widget: SupplyWidget }> {
  return api(`/supply/widget/${encodeURIComponent(reference)}`);
}

/** 'Annuler': my mobile-money or card supply not paid yet becomes FAILED (cancelled). */
export function cancelSupply(reference: string, key: IdempotencyKey): Promise<Supply> {
  return command<Supply>(`/supply/cancel/${encodeURIComponent(reference)}`, key, {
    method: 'POST',
  });
}

/** Super admin: rejects a bank supply; the requester is told the reason. */
export function rejectBankSupply(
  supply: Pick<Supply, 'reference'>,
  reason: string,
  key: IdempotencyKey,
) {
  return command<Supply>('/supply/reject-bank-supply', key, {
    body: { reference: supply.reference, reason },
  });
}

/** 'Télécharger' on Approvisionnements: both tabs as an .xlsx (false: nothing to export). */
export function exportSupplies(userId: string): Promise<boolean> {
  return downloadSpreadsheet(
    `/supply/user/${encodeURIComponent(userId)}/export/xlsx`,
    'approvisionnements.xlsx',
  );
}

/**
 * The provider of mobile-money and card supplies and its checkout script (configured on the
 * server; none for the sandbox, whose widget is a page of ours). It changes only with a restart.
 */
export const paymentProviderQuery = () =>
  queryOptions({
    queryKey: ['payment-provider'],
    queryFn: () => api<ApiResponse<'/api/supply/payment-provider'>>('/supply/payment-provider'),
    staleTime: Infinity,
  });

/** Super admin: validates a bank supply by its retyped reference. */
export function validateBankSupply(
  supply: Pick<Supply, 'reference'>,
  reference: string,
  key: IdempotencyKey,
) {
  return command<Supply>('/supply/validate-bank-supply', key, {
    body: { reference, supplyReference: supply.reference },
  });
}

/** The one bank accepted for supplies by transfer, as configured on the server. */
export type AcceptedBank = ApiResponse<'/api/supply/bank-account'>;

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
