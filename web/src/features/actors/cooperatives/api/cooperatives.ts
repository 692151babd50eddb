import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import type { ApiBody, ApiResponse } from '../../../../shared/api/types.js';
import { toPage } from '../../../../shared/auth/user.js';
import { PAGE_SIZE, type ListSearch } from '../../../../shared/search/list-search.js';

/**
 * The cooperatives' calls (spec actors-contracts-admin §7 "Cooperatives",
 * services/api/src/actors/cooperatives/http): list, detail, create in a cluster, edit,
 * deactivate and reactivate, the download.
 */

/** The two banks the forms offer (spec §3). */
export const BANKS = ['Ecobank Bénin', 'Orabank Bénin'] as const;

export type CooperativeStatus = 'active' | 'inactive';
export const COOPERATIVE_STATUSES: readonly CooperativeStatus[] = ['active', 'inactive'];

/** `GET farmer-organization/{id}` (the organisation's id is a grower's farmerOrganizationId). */
export type Cooperative = ApiResponse<'/api/farmer-organization/{id}'>;

type CooperativeBody = ApiBody<'/api/farmer-organization/cluster/{clusterId}'>;
/**
 * The form holds the bank as the text of its select; the server accepts only its two banks
 * (`accountInfo.providerName`, a 400 naming the field otherwise).
 */
export type CreateCooperativeInput = Omit<CooperativeBody, 'accountInfo'> & {
  accountInfo: { providerName: string; accountNumber: string };
};
export type UpdateCooperativeInput = ApiBody<'/api/farmer-organization/{id}', 'patch'>;
export type CooperativeUserInput = CreateCooperativeInput['user'];

export type CooperativesSearch = ListSearch<CooperativeStatus>;

export const cooperativeKeys = {
  all: ['cooperatives'] as const,
  list: (search: CooperativesSearch) => ['cooperatives', 'list', search] as const,
  detail: (id: string) => ['cooperatives', 'detail', id] as const,
};

export const cooperativesQuery = (search: CooperativesSearch) =>
  queryOptions({
    queryKey: cooperativeKeys.list(search),
    queryFn: async () =>
      toPage(
        await api<ApiResponse<'/api/farmer-organization'>>('/farmer-organization', {
          query: {
            page: search.page ?? 1,
            limit: PAGE_SIZE,
            q: search.q,
            status: search.status === 'inactive' ? 'inactive' : undefined,
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

export const cooperativeQuery = (id: string) =>
  queryOptions({
    queryKey: cooperativeKeys.detail(id),
    queryFn: () => api<Cooperative>(`/farmer-organization/${encodeURIComponent(id)}`),
  });

export const createCooperative = (clusterId: string, body: CreateCooperativeInput) =>
  api<Cooperative>(`/farmer-organization/cluster/${encodeURIComponent(clusterId)}`, {
    method: 'POST',
    body,
  });

export const updateCooperative = (id: string, body: UpdateCooperativeInput) =>
  api<Cooperative>(`/farmer-organization/${encodeURIComponent(id)}`, { method: 'PATCH', body });

export const deactivateCooperative = (id: string) =>
  api<ApiResponse<'/api/farmer-organization/{id}', 'delete'>>(
    `/farmer-organization/${encodeURIComponent(id)}`,
    {
      method: 'DELETE',
    },
  );

export const reactivateCooperative = (id: string) =>
  api<Cooperative>(`/farmer-organization/${encodeURIComponent(id)}/reactivate`, {
    method: 'PATCH',
  });

export const cooperativesDownloadPath = (userId: string) =>
  `/farmer-organization/download/${encodeURIComponent(userId)}`;
