import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';

/** An aggregator option (spec §3): id, names, organisation's denomination. */
export interface IndustrialOption {
  id: string;
  firstname: string;
  lastname: string;
  organization: { id: string; denomination: string } | null;
}

/** GET clusters/config/{userId}: the read-back and what the screen offers. */
export interface ClusterConfig {
  cluster: { id: string; label: string };
  industrial: IndustrialOption | null;
  manager: { id: string; firstname: string; lastname: string } | null;
  updatedAt: string | null;
  /** Ids of the cluster's cooperatives (organisation ids). */
  cooperatives: string[];
  /** Ids of the cluster's growers without cooperative. */
  growers: string[];
  options: {
    cooperatives: { id: string; label: string; reference: string; clusterId: string | null }[];
    growers: {
      id: string;
      clusterId: string | null;
      user: { firstname: string; lastname: string; phone: string | null };
    }[];
  };
}

/** POST clusters/create-configs (spec §3 "Cluster config (write)"). */
export interface ClusterConfigBody {
  managerUserId: string;
  clusterName: string;
  industrialUserId: string;
  growersId: string[];
  cooperativeIds: string[];
}

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
    api<{ data: IndustrialOption[]; count: number }>('/clusters/industrials', {
      query: { limit: -1 },
    }),
  staleTime: 60_000,
});

export const saveClusterConfig = (body: ClusterConfigBody) =>
  api<{ message: string; data: ClusterConfig }>('/clusters/create-configs', {
    method: 'POST',
    body,
  });
