import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import type { ApiResponse } from '../../../../shared/api/types.js';
import { downloadSpreadsheet } from '../../api/export.js';

/**
 * A wallet's history: its balances at an instant and its statement between two
 * days (services/api/src/wallet/history/routes.ts). Keys start with 'audit' (the auditor's
 * screens) and 'wallet' (a movement refreshes them with the wallet's own pushes).
 */
export type Statement = ApiResponse<'/api/wallet/{walletId}/statement'>;
export type Balances = Statement['opening'];
export type Movement = Statement['movements'][number];
export type BalanceAt = ApiResponse<'/api/wallet/{walletId}/balance'>;

export const STATEMENT_PAGE_SIZE = 10;

export const statementQuery = (walletId: string, from: string, to: string, page: number) =>
  queryOptions({
    queryKey: ['wallet', 'statement', walletId, from, to, page] as const,
    queryFn: () =>
      api<Statement>(`/wallet/${walletId}/statement`, {
        query: { from, to, page, limit: STATEMENT_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });

export const balanceAtQuery = (walletId: string, at: string) =>
  queryOptions({
    queryKey: ['wallet', 'balance-at', walletId, at] as const,
    queryFn: () => api<BalanceAt>(`/wallet/${walletId}/balance`, { query: { at } }),
  });

/** 'Télécharger': the statement as an .xlsx. */
export function downloadStatement(walletId: string, from: string, to: string): Promise<boolean> {
  return downloadSpreadsheet(
    `/wallet/${walletId}/statement.xlsx?from=${from}&to=${to}`,
    `releve-${from}-${to}.xlsx`,
  );
}
