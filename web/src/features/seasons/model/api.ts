import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { isApiError } from '../../../shared/api/api-error.js';
import { api, command } from '../../../shared/api/client.js';
import type { ApiResponse } from '../../../shared/api/types.js';
import type { IdempotencyKey } from '../../../shared/api/idempotency.js';
import { PAGE_SIZE, type ListSearch } from '../../../shared/search/list-search.js';
import type {
  AcceptedSeasonLink,
  Fertilizer,
  FertilizerType,
  FundedSeasonLink,
  LinkStatus,
  SeasonAmounts,
  SeasonDetail,
  SeasonInput,
  SeasonLinkSaved,
  SeasonSaved,
  SeasonStatus,
} from './types.js';

/**
 * The seasons' calls (docs/seasons.md, services/api/src/seasons/http) and the actors'
 * catalogue routes the season forms need (fertilizer types and fertilizers, aggregators).
 * Every query key starts with 'seasons', so the `seasons.*` pushes refresh them all
 * (web/src/shared/realtime/invalidations.ts).
 */

export type SeasonsSearch = ListSearch<SeasonStatus>;
export type IndustrialSeasonsSearch = ListSearch<LinkStatus>;

const id = (value: number | string) => encodeURIComponent(String(value));

/**
 * The read side follows the commands a moment later (the projector): a season just created
 * can answer 404 for that moment, so a 404 is asked again a few times before it shows
 * ('Saison introuvable'); other 4xx are final, a 5xx is retried twice (the app's default).
 */
const JUST_WRITTEN_RETRIES = 8;
export const retryJustWritten = (count: number, error: unknown): boolean =>
  isApiError(error, 404)
    ? count < JUST_WRITTEN_RETRIES
    : count < 2 && !(isApiError(error) && error.status < 500);
export const retryJustWrittenDelay = (count: number, error: unknown): number =>
  isApiError(error, 404) ? 250 * (count + 1) : Math.min(1000 * 2 ** count, 30_000);

export const seasonKeys = {
  all: ['seasons'] as const,
  list: (search: SeasonsSearch) => ['seasons', 'list', search] as const,
  detail: (seasonId: number) => ['seasons', 'detail', seasonId] as const,
  links: (seasonId: number) => ['seasons', 'links', seasonId] as const,
  amounts: (seasonId: number, quantity: number) =>
    ['seasons', 'amounts', seasonId, quantity] as const,
  ofIndustrial: (userId: string, search: IndustrialSeasonsSearch) =>
    ['seasons', 'industrial', userId, search] as const,
  link: (seasonId: number, userId: string) => ['seasons', 'link', seasonId, userId] as const,
  invitations: ['seasons', 'invitations'] as const,
  fertilizerTypes: ['seasons', 'catalogue', 'fertilizer-types'] as const,
  fertilizers: (typeId: number) => ['seasons', 'catalogue', 'fertilizers', typeId] as const,
  industrials: (q: string) => ['seasons', 'catalogue', 'industrials', q] as const,
};

/** `GET seasons?q&status&page&limit=10`: the admin list ('Saisons'). */
export const seasonsQuery = (search: SeasonsSearch) =>
  queryOptions({
    queryKey: seasonKeys.list(search),
    queryFn: () =>
      api<ApiResponse<'/api/seasons'>>('/seasons', {
        query: { page: search.page ?? 1, limit: PAGE_SIZE, q: search.q, status: search.status },
      }),
    placeholderData: keepPreviousData,
  });

/** `GET clusters/{id}`: the season, its lines with names, its industrials and sums. */
export const seasonQuery = (seasonId: number) =>
  queryOptions({
    queryKey: seasonKeys.detail(seasonId),
    queryFn: () => api<SeasonDetail>(`/clusters/${id(seasonId)}`),
    enabled: Number.isInteger(seasonId) && seasonId > 0,
    retry: retryJustWritten,
    retryDelay: retryJustWrittenDelay,
  });

/** `GET clusters/{id}/linked-industrials` (super admin, cluster manager). */
export const seasonLinksQuery = (seasonId: number) =>
  queryOptions({
    queryKey: seasonKeys.links(seasonId),
    queryFn: () =>
      api<ApiResponse<'/api/clusters/{id}/linked-industrials'>>(
        `/clusters/${id(seasonId)}/linked-industrials`,
      ),
    enabled: Number.isInteger(seasonId) && seasonId > 0,
    retry: retryJustWritten,
    retryDelay: retryJustWrittenDelay,
  });

/** `GET seasons/{id}/amounts?quantity=`: the three cards, nothing written. */
export const seasonAmountsQuery = (seasonId: number, quantity: number) =>
  queryOptions({
    queryKey: seasonKeys.amounts(seasonId, quantity),
    queryFn: () => api<SeasonAmounts>(`/seasons/${id(seasonId)}/amounts`, { query: { quantity } }),
    enabled: seasonId > 0 && Number.isSafeInteger(quantity) && quantity >= 1,
  });

/** `GET clusters/industrial/{userId}`: the industrial's seasons with its link's figures. */
export const industrialSeasonsQuery = (userId: string, search: IndustrialSeasonsSearch) =>
  queryOptions({
    queryKey: seasonKeys.ofIndustrial(userId, search),
    queryFn: () =>
      api<ApiResponse<'/api/clusters/industrial/{userId}'>>(`/clusters/industrial/${id(userId)}`, {
        query: { page: search.page ?? 1, limit: PAGE_SIZE, q: search.q, status: search.status },
      }),
    enabled: Boolean(userId),
    placeholderData: keepPreviousData,
  });

/** `GET clusters/{id}/industrial/{userId}`: one industrial's link and its funding. */
export const seasonLinkQuery = (seasonId: number, userId: string) =>
  queryOptions({
    queryKey: seasonKeys.link(seasonId, userId),
    queryFn: () => api<FundedSeasonLink>(`/clusters/${id(seasonId)}/industrial/${id(userId)}`),
    enabled: seasonId > 0 && Boolean(userId),
  });

/** `GET seasons/invitations`: the industrial's open invitations (the bell). */
export const seasonInvitationsQuery = queryOptions({
  queryKey: seasonKeys.invitations,
  queryFn: () => api<ApiResponse<'/api/seasons/invitations'>>('/seasons/invitations'),
});

/** `GET clusters/fertilizer-types`: Engrais, Rejets, Film polyéthylène… */
export const fertilizerTypesQuery = queryOptions({
  queryKey: seasonKeys.fertilizerTypes,
  queryFn: () => api<FertilizerType[]>('/clusters/fertilizer-types'),
  staleTime: 5 * 60_000,
});

/** `GET clusters/fertilizer-types/{type}`: the fertilizers of a type. */
export const fertilizersQuery = (typeId: number | null) =>
  queryOptions({
    queryKey: seasonKeys.fertilizers(typeId ?? 0),
    queryFn: () => api<Fertilizer[]>(`/clusters/fertilizer-types/${id(typeId ?? 0)}`),
    enabled: typeId !== null && typeId > 0,
    staleTime: 5 * 60_000,
  });

/** The aggregators' autocomplete: `GET clusters/industrials?q&limit=20` (spec §9: page 1, 20). */
export const industrialsSearchQuery = (q: string) =>
  queryOptions({
    queryKey: seasonKeys.industrials(q),
    queryFn: () =>
      api<ApiResponse<'/api/clusters/industrials'>>('/clusters/industrials', {
        query: { q: q || undefined, limit: 20 },
      }),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });

/** `POST clusters` (201); the key makes a retried create one season. */
export const createSeason = (body: SeasonInput, key: IdempotencyKey) =>
  command<SeasonSaved>('/clusters', key, { body });

/** `PATCH clusters/{id}`: the fields given (no `fertilizers` keeps the lines). */
export const updateSeason = (seasonId: number, body: Partial<SeasonInput>) =>
  api<SeasonSaved>(`/clusters/${id(seasonId)}`, { method: 'PATCH', body });

/** `DELETE clusters/{id}`: archive ('Campagne archivée avec succès'). */
export const archiveSeason = (seasonId: number) =>
  api<ApiResponse<'/api/clusters/{id}', 'delete'>>(`/clusters/${id(seasonId)}`, {
    method: 'DELETE',
  });

/** `POST clusters/activate-cluster/{id}`: 'La saison {label} a été activée avec succès'. */
export const activateSeason = (seasonId: number, key: IdempotencyKey) =>
  command<SeasonSaved & { message: string }>(`/clusters/activate-cluster/${id(seasonId)}`, key);

/** `POST clusters/{id}/industrial`: invite an aggregator for a quantity (kg). */
export const attachIndustrial = (
  seasonId: number,
  body: { industrialId: string; quantity: number },
  key: IdempotencyKey,
) => command<SeasonLinkSaved>(`/clusters/${id(seasonId)}/industrial`, key, { body });

/** `DELETE clusters/delete-industrial-link/{linkId}`: only while not confirmed. */
export const detachIndustrial = (linkId: number) =>
  api<ApiResponse<'/api/clusters/delete-industrial-link/{id}', 'delete'>>(
    `/clusters/delete-industrial-link/${id(linkId)}`,
    {
      method: 'DELETE',
    },
  );

/** `POST seasons/{id}/accept {quantity?}` (the industrial). */
export const acceptSeason = (seasonId: number, quantity: number | undefined, key: IdempotencyKey) =>
  command<AcceptedSeasonLink>(`/seasons/${id(seasonId)}/accept`, key, {
    body: quantity === undefined ? {} : { quantity },
  });
