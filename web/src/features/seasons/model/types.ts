/**
 * The seasons' shapes as the API answers them (services/api/src/seasons/http/schemas.ts and
 * the actors' catalogue routes), shared by the admin screens (features/seasons/admin) and the
 * industrial's (features/seasons/industrial), read from the generated API types. Money is
 * integer F CFA; quantities are kg.
 */
import type { ApiBody, ApiResponse, RowOf } from '../../../shared/api/types.js';

/** The admin list's status of a season (read model: ACCEPTED once a link is confirmed). */
export type SeasonStatus = 'CREATED' | 'ACCEPTED' | 'REJECTED';
/** The admin list's filter, in the spec's order: 'Nouveau', 'Accepté', 'Rejetée'. */
export const SEASON_STATUSES: readonly SeasonStatus[] = ['CREATED', 'ACCEPTED', 'REJECTED'];

/** An industrial's link to a season: invitation (PENDING), accepted, or expired. */
export type LinkStatus = 'PENDING' | 'CONFIRMED' | 'CANCELED';
export const LINK_STATUSES: readonly LinkStatus[] = ['PENDING', 'CONFIRMED', 'CANCELED'];

type Seasons = ApiResponse<'/api/seasons'>;
type FundedLink = ApiResponse<'/api/clusters/{id}/industrial/{userId}'>;

/** The three amounts of a quantity (kg): `GET seasons/{id}/amounts`, an attach's answer. */
export type SeasonAmounts = ApiResponse<'/api/seasons/{id}/amounts'>;
/** A row of `GET seasons` (the sums are over the season's live links). */
export type SeasonSummary = RowOf<Seasons>;
/** `GET clusters/{id}`: an industrial sees only its own link, and its figures as the season's. */
export type SeasonDetail = ApiResponse<'/api/clusters/{id}'>;
/** A line as the detail answers it, with the catalogue's names. */
export type SeasonFertilizerView = SeasonDetail['fertilizers'][number];
/** An industrial's link with its user (`linked-industrials`, the detail's `industrials`). */
export type SeasonLink = RowOf<ApiResponse<'/api/clusters/{id}/linked-industrials'>>;
/** What the season's commands answer (create, edit, activate). */
export type SeasonSaved = ApiResponse<'/api/clusters', 'post'>;
/** A fertilizer line of a season: unit amount aᵢ (F CFA per kg) and dose dᵢ (kg per ha). */
export type SeasonFertilizerLine = SeasonSaved['fertilizers'][number];
/** `POST clusters` / `PATCH clusters/{id}` body (the patch takes any part of it). */
export type SeasonInput = ApiBody<'/api/clusters'>;
/** An attach's answer (`POST clusters/{id}/industrial`). */
export type SeasonLinkSaved = ApiResponse<'/api/clusters/{id}/industrial', 'post'>;
/** `GET clusters/{id}/industrial/{userId}`: the link and its funding. */
export type FundedSeasonLink = FundedLink;
/** The industrial's wallet against its minimum supply ('Approvisionner maintenant'). */
export type SeasonFunding = FundedLink['funding'];
/** `POST seasons/{id}/accept`. */
export type AcceptedSeasonLink = ApiResponse<'/api/seasons/{id}/accept', 'post'>;
/** A row of `GET clusters/industrial/{userId}` ('Financement de la saison'). */
export type IndustrialSeason = RowOf<ApiResponse<'/api/clusters/industrial/{userId}'>>;
/** The bell's open invitations (`GET seasons/invitations`). */
export type SeasonInvitation = RowOf<ApiResponse<'/api/seasons/invitations'>>;
/** The fertilizer catalogue (`GET clusters/fertilizer-types`, `…/fertilizer-types/{type}`). */
export type FertilizerType = RowOf<ApiResponse<'/api/clusters/fertilizer-types'>>;
export type Fertilizer = RowOf<ApiResponse<'/api/clusters/fertilizer-types/{type}'>>;
/** An aggregator of the autocomplete (`GET clusters/industrials?q&limit=20`). */
export type IndustrialOption = RowOf<ApiResponse<'/api/clusters/industrials'>>;
