import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, command } from '../../../../shared/api/client.js';
import type { IdempotencyKey } from '../../../../shared/api/idempotency.js';
import type { ApiResponse } from '../../../../shared/api/types.js';
import { PAGE_SIZE } from '../../../../shared/search/list-search.js';
import type { RequestStatus, RequestType } from '../model/requests.js';

/**
 * The growers' requests calls (services/api/src/seasons/requests/http). Every key starts
 * with 'season-requests': the `seasons.request` and `seasons.requestUpdated` pushes refresh
 * them (shared/realtime/invalidations.ts).
 */
export type RequestsPage =
  ApiResponse<'/api/user-cluster-grower/get-industrial-requests/{type}/{userId}'>;
export type RequestRow = RequestsPage['values'][number];
export type BulkAnswer = ApiResponse<'/api/user-cluster-grower/accept-requests', 'post'>;
export type FilingOptions = ApiResponse<'/api/season-requests/filing-options'>;

export interface RequestListParams {
  type: RequestType;
  /** Whose requests (the signed-in user's id; the super admin's own id = all). */
  userId: string;
  page: number;
  status: RequestStatus;
  q?: string | undefined;
  seasonId?: number | undefined;
}

export const requestKeys = {
  all: ['season-requests'] as const,
  list: (params: RequestListParams) => ['season-requests', 'list', params] as const,
  social: (params: Omit<RequestListParams, 'type' | 'userId'>) =>
    ['season-requests', 'social', params] as const,
  options: ['season-requests', 'filing-options'] as const,
};

const pageQuery = (p: Omit<RequestListParams, 'type' | 'userId'>) => ({
  page: p.page,
  limit: PAGE_SIZE,
  status: p.status,
  q: p.q,
  seasonId: p.seasonId,
});

/** `GET user-cluster-grower/get-industrial-requests/{type}/{userId}`: `{count, values}`. */
export const requestsQuery = (params: RequestListParams) =>
  queryOptions({
    queryKey: requestKeys.list(params),
    queryFn: () =>
      api<RequestsPage>(
        `/user-cluster-grower/get-industrial-requests/${params.type}/${encodeURIComponent(params.userId)}`,
        { query: pageQuery(params) },
      ),
    enabled: Boolean(params.userId),
    placeholderData: keepPreviousData,
  });

/** `GET season-requests/social`: the SOCIAL requests asked of the signed-in SFD. */
export const socialRequestsQuery = (params: Omit<RequestListParams, 'type' | 'userId'>) =>
  queryOptions({
    queryKey: requestKeys.social(params),
    queryFn: () => api<RequestsPage>('/season-requests/social', { query: pageQuery(params) }),
    placeholderData: keepPreviousData,
  });

/** `GET season-requests/filing-options`: growers, active seasons with their lines, SFDs. */
export const filingOptionsQuery = queryOptions({
  queryKey: requestKeys.options,
  queryFn: () => api<FilingOptions>('/season-requests/filing-options', { query: { limit: 100 } }),
});

/** `POST user-cluster-grower/accept-requests {ids}`: one answer per id. */
export const acceptRequests = (ids: number[], key: IdempotencyKey) =>
  command<BulkAnswer>('/user-cluster-grower/accept-requests', key, { body: { ids } });

/** `POST user-cluster-grower/reject-requests [{id, reason}]`: one answer per id. */
export const rejectRequests = (items: { id: number; reason: string }[], key: IdempotencyKey) =>
  command<BulkAnswer>('/user-cluster-grower/reject-requests', key, { body: items });

/** `POST season-requests`: a grower's request (201). */
export const fileRequest = (body: Record<string, unknown>, key: IdempotencyKey) =>
  command<ApiResponse<'/api/season-requests', 'post'>>('/season-requests', key, {
    body,
  });

/** One list for either owner: a user's requests of a type, or the SFD's SOCIAL list. */
export const requestListQuery = (
  owner: { userId: string } | 'social',
  type: RequestType,
  params: Omit<RequestListParams, 'type' | 'userId'>,
) =>
  queryOptions<RequestsPage>({
    queryKey:
      owner === 'social'
        ? requestKeys.social(params)
        : requestKeys.list({ ...params, type, userId: owner.userId }),
    queryFn: () =>
      owner === 'social'
        ? api<RequestsPage>('/season-requests/social', { query: pageQuery(params) })
        : api<RequestsPage>(
            `/user-cluster-grower/get-industrial-requests/${type}/${encodeURIComponent(owner.userId)}`,
            { query: pageQuery(params) },
          ),
    enabled: owner === 'social' || Boolean(owner.userId),
    placeholderData: keepPreviousData,
  });
