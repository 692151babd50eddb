import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import type { ApiBody, ApiResponse, RowOf } from '../../../../shared/api/types.js';
import { toPage, type Page } from '../../../../shared/auth/user.js';
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

/** A plot (`product`): a location chain of codes, its name, coordinates, dates and areas. */
export interface Plot {
  id: string;
  productType: PineappleType;
  department: string;
  borough: string;
  district: string;
  village: string;
  /** The plot's name. */
  location: string;
  longitude: number | null;
  latitude: number | null;
  plantingDate: string | null;
  tifDate: string | null;
  /** Sown area, ha (a decimal). */
  areaSown: number;
  estimatedProduction: number | null;
}

/**
 * The grower's user. The list sends id, names and phone; the detail (`GET grower/{id}`) the
 * rest: NIP, e-mail, contact, the address's location codes.
 */
export interface GrowerUser {
  id: string;
  lastname: string;
  firstname: string;
  phone: string | null;
  nip?: string | null;
  email?: string | null;
  contactFullname?: string | null;
  contactPhone?: string | null;
  department?: string;
  borough?: string;
  district?: string;
  village?: string;
}

/** A row of the list, or the detail (which adds the plots and the payout account). */
export interface Grower {
  id: string;
  reference: string;
  user: GrowerUser;
  /** Null without a cooperative, and always in the cooperative's own list. */
  farmerOrganization: { id: string; label: string } | null;
  farmerOrganizationId?: string | null;
  clusterId: string;
  cluster?: { id: string; label: string } | null;
  products?: Plot[];
  /** 'Superficie emblavée (ha)': the sum of its plots' areaSown. */
  areaSown?: number | string | null;
  /** Null for the roles that read growers without registering them (industrial, SFD). */
  accountInfo?: { providerName: string | null; accountNumber: string | null } | null;
  momoInfo?: { providerName: 'MOOV' | 'MTN' | null; momoNumber: string | null } | null;
  isActive: boolean;
  /** Set once banned (deactivated). */
  deactivatedAt?: string | null;
}

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
        await api<Page<Grower> | Grower[]>('/grower', {
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
        await api<Page<GrowerContract> | GrowerContract[]>(
          `/grower/contracts/${encodeURIComponent(id)}`,
          { query: { page: search.page ?? 1, limit: PAGE_SIZE, q: search.q } },
        ),
      ),
    placeholderData: keepPreviousData,
  });

/** A cooperative the grower may belong to: its organisation id and name. */
export interface CooperativeOption {
  id: string;
  label: string;
}

/**
 * `GET farmer-organization/cluster/{clusterId}?limit=-1`: the cluster's cooperatives (a
 * grower's cooperative is in its cluster); `id` is the organisation id.
 */
export const cooperativeOptionsQuery = (clusterId: string) =>
  queryOptions({
    queryKey: ['growers', 'cooperative-options', clusterId],
    queryFn: async (): Promise<CooperativeOption[]> => {
      const page = toPage(
        await api<Page<CooperativeOption> | CooperativeOption[]>(
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
  api<Grower>(`/grower/cluster/${encodeURIComponent(clusterId)}`, { method: 'POST', body });

export const updateGrower = (id: string, body: UpdateGrowerInput) =>
  api<Grower>(`/grower/${encodeURIComponent(id)}`, { method: 'PATCH', body });

/** Ban (`DELETE grower/{id}`): a deactivation the super admin can undo. */
export const banGrower = (grower: Pick<Grower, 'id'>) =>
  api<{ message?: string }>(`/grower/${encodeURIComponent(grower.id)}`, { method: 'DELETE' });

/** 'Réintégrer' a banned grower (`POST grower/{id}/reactivate`, super admin). */
export const reinstateGrower = (grower: Pick<Grower, 'id'>) =>
  api<{ message?: string }>(`/grower/${encodeURIComponent(grower.id)}/reactivate`, {
    method: 'POST',
  });

export const addPlot = (growerId: string, plot: PlotInput) =>
  api<Plot>('/product', { method: 'POST', body: { ...plot, growerId } });

export const updatePlot = (id: string, plot: PlotInput) =>
  api<Plot>(`/product/${encodeURIComponent(id)}`, { method: 'PATCH', body: plot });

/** `GET users/{id}/reset-pin`: `{statusCode: 200, message}` when the SMS is on its way. */
export const resetPin = (userId: string) =>
  api<{ statusCode?: number; message?: string }>(`/users/${encodeURIComponent(userId)}/reset-pin`);

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
