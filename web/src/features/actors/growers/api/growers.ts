import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import type { ApiBody, ApiResponse, RowOf } from '../../../../shared/api/types.js';
import { toPage } from '../../../../shared/auth/user.js';
import { PAGE_SIZE, type ListSearch } from '../../../../shared/search/list-search.js';

/**
 * The growers' calls (spec actors-contracts-admin §7, services/api/src/actors/growers/http):
 * list, detail, create, edit, deactivate (ban) and reinstate, plots, the grower's contracts,
 * the download and the PIN reset.
 */

export type PineappleType = 'CAYENNE_LISSE' | 'PAIN_DE_SUCRE';
export const PINEAPPLE_TYPES: readonly PineappleType[] = ['CAYENNE_LISSE', 'PAIN_DE_SUCRE'];

/** The list filter of the super admin: active growers (default) or banned ones. */
export type GrowerStatus = 'active' | 'inactive';
export const GROWER_STATUSES: readonly GrowerStatus[] = ['active', 'inactive'];

/** A row of the list: id, reference, names and phone, cooperative, area and plot count. */
export type GrowerRow = RowOf<ApiResponse<'/api/grower'>>;

/**
 * The detail (`GET grower/{id}`): the user's NIP, e-mail, contact and address codes, the
 * plots, the payout account (null for the roles that read growers without registering them:
 * industrial, SFD) and, once banned, `deactivatedAt`.
 */
export type Grower = ApiResponse<'/api/grower/{id}'>;

export type GrowerUser = Grower['user'];

/** A plot (`product`): a location chain of codes, its name, coordinates, dates and areas. */
export type Plot = Grower['products'][number];

export type GrowersSearch = ListSearch<GrowerStatus>;

export const growerKeys = {
  all: ['growers'] as const,
  list: (search: GrowersSearch) => ['growers', 'list', search] as const,
  detail: (id: string) => ['growers', 'detail', id] as const,
  contracts: (id: string, search: ListSearch<never>) =>
    ['growers', 'contracts', id, search] as const,
};

export const growersQuery = (search: GrowersSearch) =>
  queryOptions({
    queryKey: growerKeys.list(search),
    queryFn: async () =>
      toPage(
        await api<ApiResponse<'/api/grower'>>('/grower', {
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

export const growerQuery = (id: string) =>
  queryOptions({
    queryKey: growerKeys.detail(id),
    queryFn: () => api<Grower>(`/grower/${encodeURIComponent(id)}`),
  });

/** A contract of the grower (`GET grower/contracts/{id}`). */
export type GrowerContract = RowOf<ApiResponse<'/api/grower/contracts/{id}'>>;

export const growerContractsQuery = (id: string, search: ListSearch<never>) =>
  queryOptions({
    queryKey: growerKeys.contracts(id, search),
    queryFn: async () =>
      toPage(
        await api<ApiResponse<'/api/grower/contracts/{id}'>>(
          `/grower/contracts/${encodeURIComponent(id)}`,
          { query: { page: search.page ?? 1, limit: PAGE_SIZE, q: search.q } },
        ),
      ),
    placeholderData: keepPreviousData,
  });

/** A cooperative the grower may belong to: its organisation id and name. */
export type CooperativeOption = Pick<
  RowOf<ApiResponse<'/api/farmer-organization/cluster/{clusterId}'>>,
  'id' | 'label'
>;

/**
 * `GET farmer-organization/cluster/{clusterId}?limit=-1`: the cluster's cooperatives (a
 * grower's cooperative is in its cluster); `id` is the organisation id.
 */
export const cooperativeOptionsQuery = (clusterId: string) =>
  queryOptions({
    queryKey: ['growers', 'cooperative-options', clusterId],
    queryFn: async (): Promise<CooperativeOption[]> => {
      const page = toPage(
        await api<ApiResponse<'/api/farmer-organization/cluster/{clusterId}'>>(
          `/farmer-organization/cluster/${encodeURIComponent(clusterId)}`,
          { query: { limit: -1 } },
        ),
      );
      return page.data.map((c) => ({ id: c.id, label: c.label }));
    },
    enabled: Boolean(clusterId),
    staleTime: 60_000,
  });

/** The banks offered for a payout account (spec §3: two banks). */
export const BANKS = ['Ecobank Bénin', 'Orabank Bénin'] as const;

export type CreateGrowerInput = ApiBody<'/api/grower/cluster/{id}'>;
export type GrowerUserInput = CreateGrowerInput['user'];
export type PlotInput = NonNullable<CreateGrowerInput['products']>[number];
export type UpdateGrowerInput = ApiBody<'/api/grower/{id}', 'patch'>;

/** `POST grower/cluster/{clusterId}`: 409 PHONE_ALREADY_EXIST when the phone is in use. */
export const createGrower = (clusterId: string, body: CreateGrowerInput) =>
  api<ApiResponse<'/api/grower/cluster/{id}', 'post'>>(
    `/grower/cluster/${encodeURIComponent(clusterId)}`,
    { method: 'POST', body },
  );

export const updateGrower = (id: string, body: UpdateGrowerInput) =>
  api<ApiResponse<'/api/grower/{id}', 'patch'>>(`/grower/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body,
  });

/** Ban (`DELETE grower/{id}`): a deactivation the super admin can undo. */
export const banGrower = (grower: Pick<Grower, 'id'>) =>
  api<ApiResponse<'/api/grower/{id}', 'delete'>>(`/grower/${encodeURIComponent(grower.id)}`, {
    method: 'DELETE',
  });

/** 'Réintégrer' a banned grower (`POST grower/{id}/reactivate`, super admin). */
export const reinstateGrower = (grower: Pick<Grower, 'id'>) =>
  api<ApiResponse<'/api/grower/{id}/reactivate', 'post'>>(
    `/grower/${encodeURIComponent(grower.id)}/reactivate`,
    {
      method: 'POST',
    },
  );

export const addPlot = (growerId: string, plot: PlotInput) =>
  api<ApiResponse<'/api/product', 'post'>>('/product', {
    method: 'POST',
    body: { ...plot, growerId },
  });

export const updatePlot = (id: string, plot: PlotInput) =>
  api<ApiResponse<'/api/product/{id}', 'patch'>>(`/product/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: plot,
  });

/** `GET users/{id}/reset-pin`: `{statusCode: 200, message}` when the SMS is on its way. */
export const resetPin = (userId: string) =>
  api<ApiResponse<'/api/users/{id}/reset-pin'>>(`/users/${encodeURIComponent(userId)}/reset-pin`);

/**
 * `GET grower/download/{userId}` (the signed-in user's id): the rows its list shows, with the
 * list's search and status, as .xlsx with French headers.
 */
export const growersDownloadPath = (userId: string, search: GrowersSearch) => {
  const params = new URLSearchParams();
  if (search.q) params.set('q', search.q);
  if (search.status === 'inactive') params.set('status', 'inactive');
  const qs = params.toString();
  return `/grower/download/${encodeURIComponent(userId)}${qs ? `?${qs}` : ''}`;
};
