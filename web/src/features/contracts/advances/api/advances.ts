import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import type { ApiResponse, RowOf } from '../../../../shared/api/types.js';
import { PAGE_SIZE } from '../../../../shared/search/list-search.js';

/**
 * The advance families (services/api/src/contracts/advances), read from the growers' debts:
 * `contracts/smarts/{userId}/{family}` and an advance's recoveries.
 */
export const ADVANCE_KINDS = [
  'AVANCE_SUR_INTRANT',
  'AVANCE_SUR_ANANAS',
  'FINANCEMENT_SOCIAL',
] as const;
export type AdvanceKind = (typeof ADVANCE_KINDS)[number];

type Advances = ApiResponse<'/api/contracts/smarts/{userId}/AVANCE_SUR_INTRANT'>;
type Recoveries = ApiResponse<'/api/contracts/advances/{id}/recoveries'>;

export type AdvanceRow = RowOf<Advances>;

export type Recovery = RowOf<Recoveries>;

export const advancesQuery = (
  userId: string,
  kind: AdvanceKind,
  search: { page?: number | undefined; q?: string | undefined; status?: string | undefined },
) =>
  queryOptions({
    queryKey: ['contracts', 'advances', kind, userId, search],
    queryFn: () =>
      api<Advances>(`/contracts/smarts/${encodeURIComponent(userId)}/${kind}`, {
        query: {
          page: search.page ?? 1,
          limit: PAGE_SIZE,
          q: search.q,
          filters: search.status ?? 'all',
        },
      }),
    placeholderData: keepPreviousData,
  });

export const recoveriesQuery = (advanceId: string, page: number) =>
  queryOptions({
    queryKey: ['contracts', 'advances', 'recoveries', advanceId, page],
    queryFn: () =>
      api<Recoveries>(`/contracts/advances/${encodeURIComponent(advanceId)}/recoveries`, {
        query: { page, limit: PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
