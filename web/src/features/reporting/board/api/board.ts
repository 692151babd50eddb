import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import type { ApiResponse, RowOf } from '../../../../shared/api/types.js';
import { PAGE_SIZE } from '../../../../shared/search/list-search.js';
import { downloadSpreadsheet } from '../../../wallet/api/export.js';

/**
 * The super admin's reporting board (spec actors-contracts-admin §2.8, §7
 * `reporting/growers-stats`, `reporting/transactions-stats`). The answers mirror the API's zod
 * schemas (services/api/src/reporting/board/schemas.ts).
 */

/** `GET reporting/growers-stats`: one page, the rows matching `q`, the three grower cards. */
export type GrowersStats = ApiResponse<'/api/reporting/growers-stats'>;
/** One row of the growers table: Nom, Prénoms, Téléphone, Superficie emblavée (ha). */
export type GrowerStatsRow = RowOf<GrowersStats>;
/** `GET reporting/transactions-stats`: the six transaction cards (F CFA totals). */
export type TransactionsStats = ApiResponse<'/api/reporting/transactions-stats'>;

export interface GrowersStatsQuery {
  clusterId?: string | undefined;
  page: number;
  q?: string | undefined;
}

/** Every board query starts with 'reporting': the `reporting.board` push refreshes them. */
export const boardKeys = {
  all: ['reporting'] as const,
  growers: (query: GrowersStatsQuery) => ['reporting', 'growers', query] as const,
  transactions: (clusterId: string | undefined) =>
    ['reporting', 'transactions', clusterId ?? 'all'] as const,
};

export const growersStatsQuery = (query: GrowersStatsQuery) =>
  queryOptions({
    queryKey: boardKeys.growers(query),
    queryFn: () =>
      api<GrowersStats>('/reporting/growers-stats', {
        query: { clusterId: query.clusterId, page: query.page, limit: PAGE_SIZE, q: query.q },
      }),
    placeholderData: keepPreviousData,
  });

export const transactionsStatsQuery = (clusterId: string | undefined) =>
  queryOptions({
    queryKey: boardKeys.transactions(clusterId),
    queryFn: () =>
      api<TransactionsStats>('/reporting/transactions-stats', { query: { clusterId } }),
    placeholderData: keepPreviousData,
  });

/** 'Télécharger': the growers of the cluster (or all) as an .xlsx. */
export function downloadGrowersReport(clusterId: string | undefined): Promise<boolean> {
  const query = clusterId ? `?clusterId=${encodeURIComponent(clusterId)}` : '';
  return downloadSpreadsheet(`/reporting/export.xlsx${query}`, 'reporting-producteurs.xlsx');
}
