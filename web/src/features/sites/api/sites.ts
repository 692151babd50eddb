import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.js';
import type { ApiBody, ApiResponse } from '../../../shared/api/types.js';
import { PAGE_SIZE, type ListSearch } from '../../../shared/search/list-search.js';

/**
 * The sites' calls (services/api/src/sites/http): an industrial's stores (spec seasons §7:
 * users/add-site, users/update-site, users/delete-site; the list is GET users/{id}/sites),
 * its coverage zones (/coverage-zones), the maps' settings and the offline address search.
 */

export type Site = ApiResponse<'/api/users/add-site/{id}', 'post'>;
export type SiteInput = ApiBody<'/api/users/add-site/{id}'>;
export type Zone = ApiResponse<'/api/coverage-zones', 'post'>;
export type ZoneInput = ApiBody<'/api/coverage-zones'>;
/**
 * `styleUrl`: a style JSON URL, a raster tile template with {z}/{x}/{y}, or 'offline';
 * `geocoderUrl`: a Nominatim-compatible base URL, or 'offline'.
 */
export type MapSettings = ApiResponse<'/api/sites/map-settings'>;

export interface Page<T> {
  data: T[];
  count: number;
}

export const siteKeys = {
  sites: ['sites', 'stores'] as const,
  siteList: (userId: string, search: ListSearch<never>) =>
    ['sites', 'stores', userId, search] as const,
  zones: ['sites', 'zones'] as const,
  zoneList: (search: ListSearch<never>) => ['sites', 'zones', search] as const,
  settings: ['sites', 'map-settings'] as const,
};

const listParams = (search: ListSearch<never>) => ({
  page: search.page ?? 1,
  limit: PAGE_SIZE,
  q: search.q,
});

export const sitesQuery = (userId: string, search: ListSearch<never>) =>
  queryOptions({
    queryKey: siteKeys.siteList(userId, search),
    queryFn: () =>
      api<Page<Site>>(`/users/${encodeURIComponent(userId)}/sites`, { query: listParams(search) }),
    placeholderData: keepPreviousData,
  });

export const addSite = (userId: string, body: SiteInput) =>
  api<Site>(`/users/add-site/${encodeURIComponent(userId)}`, { method: 'POST', body });
export const updateSite = (id: string, body: Partial<SiteInput>) =>
  api<Site>(`/users/update-site/${encodeURIComponent(id)}`, { method: 'PATCH', body });
export const deleteSite = (id: string) =>
  api<ApiResponse<'/api/users/delete-site/{id}', 'delete'>>(
    `/users/delete-site/${encodeURIComponent(id)}`,
    { method: 'DELETE' },
  );

export const zonesQuery = (search: ListSearch<never>) =>
  queryOptions({
    queryKey: siteKeys.zoneList(search),
    queryFn: () => api<Page<Zone>>('/coverage-zones', { query: listParams(search) }),
    placeholderData: keepPreviousData,
  });

export const addZone = (body: ZoneInput) => api<Zone>('/coverage-zones', { method: 'POST', body });
export const updateZone = (id: string, body: Partial<ZoneInput>) =>
  api<Zone>(`/coverage-zones/${encodeURIComponent(id)}`, { method: 'PATCH', body });
export const deleteZone = (id: string) =>
  api<ApiResponse<'/api/coverage-zones/{id}', 'delete'>>(
    `/coverage-zones/${encodeURIComponent(id)}`,
    { method: 'DELETE' },
  );

export const mapSettingsQuery = () =>
  queryOptions({
    queryKey: siteKeys.settings,
    queryFn: () => api<MapSettings>('/sites/map-settings'),
    staleTime: Infinity,
  });

/** The offline address suggestions: villages and the places above them. */
export const searchLocalAddresses = (q: string) =>
  api<ApiResponse<'/api/sites/address-search'>>('/sites/address-search', { query: { q } });
