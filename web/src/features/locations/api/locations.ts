import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.js';
import type { ApiResponse, RowOf } from '../../../shared/api/types.js';

/**
 * Benin's territorial reference data (services/api/src/locations): département → commune →
 * arrondissement → village, each with its code and its name (upper case, without accents, as
 * in the source data: shown as they are). The data never changes while the app runs, so the
 * answers are cached for the session.
 */
export type Department = RowOf<ApiResponse<'/api/departments'>>;
export type Commune = RowOf<ApiResponse<'/api/commons/{departmentCode}'>>;
export type Arrondissement = RowOf<ApiResponse<'/api/boroughs/{departmentCode}/{communeCode}'>>;
export type Village = RowOf<
  ApiResponse<'/api/districts/{departmentCode}/{communeCode}/{arrondissementCode}'>
>;
/** A village with the chain above it (`GET /district/{villageCode}`). */
export type VillageChain = ApiResponse<'/api/district/{villageCode}'>;

interface List<T> {
  data: T[];
  count: number;
}

export const locationKeys = {
  all: ['locations'] as const,
  departments: ['locations', 'departments'] as const,
  communes: (department: string) => ['locations', 'communes', department] as const,
  arrondissements: (department: string, commune: string) =>
    ['locations', 'arrondissements', department, commune] as const,
  villages: (department: string, commune: string, arrondissement: string) =>
    ['locations', 'villages', department, commune, arrondissement] as const,
  village: (code: string) => ['locations', 'village', code] as const,
};

const forever = { staleTime: Infinity, gcTime: 3_600_000 } as const;
const path = (...parts: string[]) => parts.map(encodeURIComponent).join('/');

/** `GET /departments`: the 12 departments. */
export const departmentsQuery = queryOptions({
  queryKey: locationKeys.departments,
  queryFn: async () => (await api<List<Department>>('/departments')).data,
  ...forever,
});

/** `GET /commons/{department}`: the communes of a department. */
export const communesQuery = (department: string) =>
  queryOptions({
    queryKey: locationKeys.communes(department),
    queryFn: async () => (await api<List<Commune>>(`/commons/${path(department)}`)).data,
    enabled: !!department,
    ...forever,
  });

/** `GET /boroughs/{department}/{commune}`: the arrondissements of a commune. */
export const arrondissementsQuery = (department: string, commune: string) =>
  queryOptions({
    queryKey: locationKeys.arrondissements(department, commune),
    queryFn: async () =>
      (await api<List<Arrondissement>>(`/boroughs/${path(department, commune)}`)).data,
    enabled: !!department && !!commune,
    ...forever,
  });

/** `GET /districts/{department}/{commune}/{arrondissement}`: the villages of an arrondissement. */
export const villagesQuery = (department: string, commune: string, arrondissement: string) =>
  queryOptions({
    queryKey: locationKeys.villages(department, commune, arrondissement),
    queryFn: async () =>
      (await api<List<Village>>(`/districts/${path(department, commune, arrondissement)}`)).data,
    enabled: !!department && !!commune && !!arrondissement,
    ...forever,
  });

/** `GET /district/{village}`: a village and the chain above it (detail pages, tables). */
export const villageQuery = (code: string) =>
  queryOptions({
    queryKey: locationKeys.village(code),
    queryFn: () => api<VillageChain>(`/district/${path(code)}`),
    enabled: !!code,
    ...forever,
  });

/** The names of a stored village code (undefined while loading, or without a code). */
export function useVillageChain(code: string | null | undefined) {
  return useQuery(villageQuery(code ?? ''));
}
