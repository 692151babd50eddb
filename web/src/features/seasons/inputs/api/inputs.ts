import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, command } from '../../../../shared/api/client.js';
import type { IdempotencyKey } from '../../../../shared/api/idempotency.js';
import type { ApiBody, ApiResponse, RowOf } from '../../../../shared/api/types.js';
import { PAGE_SIZE, type ListSearch } from '../../../../shared/search/list-search.js';

/**
 * The input providers of an industrial's season link (spec seasons §7 "Funding and
 * providers of a season"; services/api/src/seasons/inputs/http).
 */
export type SeasonProviderRow = RowOf<
  ApiResponse<'/api/user-cluster-input-provider/{linkId}/input-providers'>
>;
/** A supplier the industrial may assign (`GET input-provider`). */
export type ProviderOption = RowOf<ApiResponse<'/api/input-provider'>>;
export type AssignInput = ApiBody<'/api/user-cluster-input-provider'>;
export type AssignmentAnswer = ApiResponse<'/api/user-cluster-input-provider', 'post'>;

export const inputKeys = {
  all: ['season-inputs'] as const,
  list: (linkId: number, search: ListSearch) => ['season-inputs', 'list', linkId, search] as const,
  max: (seasonId: number, industrialId: string, fertilizerId: number) =>
    ['season-inputs', 'max', seasonId, industrialId, fertilizerId] as const,
  providers: (q: string) => ['season-inputs', 'providers', q] as const,
};

/** `GET user-cluster-input-provider/{linkId}/input-providers`. */
export const seasonProvidersQuery = (linkId: number, search: ListSearch) =>
  queryOptions({
    queryKey: inputKeys.list(linkId, search),
    queryFn: () =>
      api<ApiResponse<'/api/user-cluster-input-provider/{linkId}/input-providers'>>(
        `/user-cluster-input-provider/${linkId}/input-providers`,
        { query: { page: search.page ?? 1, limit: PAGE_SIZE, q: search.q } },
      ),
    placeholderData: keepPreviousData,
  });

/** `GET user-cluster-input-provider/input-quantite`: the maximum still assignable (kg). */
export const maxQuantityQuery = (
  seasonId: number,
  industrialId: string,
  fertilizerId: number | null,
) =>
  queryOptions({
    queryKey: inputKeys.max(seasonId, industrialId, fertilizerId ?? 0),
    queryFn: () =>
      api<ApiResponse<'/api/user-cluster-input-provider/input-quantite'>>(
        '/user-cluster-input-provider/input-quantite',
        {
          query: { industrialId, clusterId: seasonId, inputId: fertilizerId! },
        },
      ),
    enabled: fertilizerId !== null && fertilizerId > 0,
  });

/** The providers' autocomplete (by first name, last name or phone): page 1, limit 20. */
export const providerOptionsQuery = (q: string) =>
  queryOptions({
    queryKey: inputKeys.providers(q),
    queryFn: () =>
      api<ApiResponse<'/api/input-provider'>>('/input-provider', {
        query: { page: 1, limit: 20, q: q || undefined },
      }),
    placeholderData: keepPreviousData,
  });

/** `POST user-cluster-input-provider`: holds the amount on the industrial's wallet. */
export const assignProvider = (body: AssignInput, key: IdempotencyKey) =>
  command<AssignmentAnswer>('/user-cluster-input-provider', key, { body });

/** `DELETE user-cluster-input-provider/{id}`: the ban ('{name} est bani de la saison avec succès'). */
export const banProvider = (id: number) =>
  api<ApiResponse<'/api/user-cluster-input-provider/{id}', 'delete'>>(
    `/user-cluster-input-provider/${id}`,
    {
      method: 'DELETE',
    },
  );
