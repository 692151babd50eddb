import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import { downloadSpreadsheet } from '../../api/export.js';

/**
 * A wallet's history: its balances at an instant and its statement between two
 * days (services/api/src/wallet/history/routes.ts). Keys start with 'audit' (the auditor's
 * screens) and 'wallet' (a movement refreshes them with the wallet's own pushes).
 */
export interface Balances {
  balance: number;
  availableBalance: number;
}

export interface BalanceAt extends Balances {
  walletId: string;
  at: string;
  position: number | null;
}

export interface Movement {
  position: number;
  recordedAt: string;
  type: string;
  reference: string | null;
  amount: number;
  availableAmount: number;
  balance: number;
  availableBalance: number;
}

export interface Statement {
  walletId: string;
  owner: { firstname: string; lastname: string };
  from: string;
  to: string;
  opening: Balances;
  closing: Balances;
  credits: number;
  debits: number;
  movements: Movement[];
  count: number;
  page: number;
  limit: number;
}

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
