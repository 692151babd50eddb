import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import type { ApiBody, ApiResponse, RowOf } from '../../../../shared/api/types.js';

/** An aggregator option (spec §3): id, names, organisation's denomination. */
export type IndustrialOption = RowOf<ApiResponse<'/api/clusters/industrials'>>;

/** GET clusters/config/{userId}: the read-back and what the screen offers. */
export type ClusterConfig = ApiResponse<'/api/clusters/config/{userId}'>;
/** POST clusters/create-configs (spec §3 "Cluster config (write)"). */
export type ClusterConfigBody = ApiBody<'/api/clusters/create-configs'>;

export const clusterConfigQuery = (userId: string) =>
  queryOptions({
    queryKey: ['clusters', 'config', userId],
    queryFn: () => api<ClusterConfig>(`/clusters/config/${userId}`),
    retry: false,
  });

/** Every active aggregator (the select filters them as one types). */
export const industrialOptionsQuery = queryOptions({
  queryKey: ['clusters', 'industrials'],
  queryFn: () =>
    api<ApiResponse<'/api/clusters/industrials'>>('/clusters/industrials', {
      query: { limit: -1 },
    }),
  staleTime: 60_000,
});

export const saveClusterConfig = (body: ClusterConfigBody) =>
  api<{ message: string; data: ClusterConfig }>('/clusters/create-configs', {
    method: 'POST',
    body,
  });
