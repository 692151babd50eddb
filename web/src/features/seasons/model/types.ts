/**
 * The seasons' shapes as the API answers them (services/api/src/seasons/http/schemas.ts and
 * the actors' catalogue routes), shared by the admin screens (features/seasons/admin) and the
 * industrial's (features/seasons/industrial). Money is integer F CFA; quantities are kg.
 */

/** The admin list's status of a season (read model: ACCEPTED once a link is confirmed). */
export type SeasonStatus = 'CREATED' | 'ACCEPTED' | 'REJECTED';
/** The admin list's filter, in the spec's order: 'Nouveau', 'Accepté', 'Rejetée'. */
export const SEASON_STATUSES: readonly SeasonStatus[] = ['CREATED', 'ACCEPTED', 'REJECTED'];

/** An industrial's link to a season: invitation (PENDING), accepted, or expired. */
export type LinkStatus = 'PENDING' | 'CONFIRMED' | 'CANCELED';
export const LINK_STATUSES: readonly LinkStatus[] = ['PENDING', 'CONFIRMED', 'CANCELED'];

/** The three amounts of a quantity (kg): `GET seasons/{id}/amounts`, an attach's answer. */
export interface SeasonAmounts {
  quantity: number;
  /** 'Total à payer': quantity × price per kg. */
  productionAmount: number;
  /** 'Montant des engrais'. */
  fertilizerAmount: number;
  /** 'Montant min à appro': fertilizer amount + quotity of the production amount. */
  minSupplyAmount: number;
}

/** A fertilizer line of a season: unit amount aᵢ (F CFA per kg) and dose dᵢ (kg per ha). */
export interface SeasonFertilizerLine {
  fertilizerId: number;
  typeId: number;
  amount: number;
  index: number;
}

/** A line as the detail answers it, with the catalogue's names. */
export interface SeasonFertilizerView extends SeasonFertilizerLine {
  label: string | null;
  typeLabel: string | null;
}

/** A row of `GET seasons` (the sums are over the season's live links). */
export interface SeasonSummary extends SeasonAmounts {
  id: number;
  label: string;
  /** 'YYYY-MM-DD'. */
  from: string;
  to: string;
  unitProductAmount: number;
  /** Y: tonnes of pineapple per hectare. */
  productionIndex: number;
  /** q: percent. */
  quotity: number;
  isActive: boolean;
  status: SeasonStatus | string;
  createdAt: string;
  industrialsCount: number;
}

/** An industrial's link with its user (`linked-industrials`, the detail's `industrials`). */
export interface SeasonLink extends SeasonAmounts {
  linkId: number;
  seasonId: number;
  userId: string;
  user: { firstname: string; lastname: string; phone: string | null };
  status: LinkStatus | string;
  attachedAt: string;
  expiresAt: string;
  acceptedAt: string | null;
}

/** `GET clusters/{id}`: an industrial sees only its own link, and its figures as the season's. */
export interface SeasonDetail extends SeasonSummary {
  fertilizers: SeasonFertilizerView[];
  industrials: SeasonLink[];
}

/** What the season's commands answer (create, edit, activate). */
export interface SeasonSaved {
  seasonId: number;
  label: string;
  from: string;
  to: string;
  unitProductAmount: number;
  productionIndex: number;
  quotity: number;
  fertilizers: SeasonFertilizerLine[];
  isActive: boolean;
}

/** `POST clusters` / `PATCH clusters/{id}` body (the patch takes any part of it). */
export interface SeasonInput {
  label: string;
  from: string;
  to: string;
  unitProductAmount: number;
  productionIndex: number;
  quotity: number;
  fertilizers: { fertilizerId: number; typeId?: number; amount: number; index: number }[];
}

/** An attach's answer (`POST clusters/{id}/industrial`). */
export interface SeasonLinkSaved extends SeasonAmounts {
  linkId: number;
  seasonId: number;
  userId: string;
  status: LinkStatus;
  expiresAt: string;
}

/** The industrial's wallet against its minimum supply ('Approvisionner maintenant'). */
export interface SeasonFunding {
  availableBalance: number;
  minSupplyAmount: number;
  funded: boolean;
  /** 0 when funded. */
  shortfall: number;
}

/** `GET clusters/{id}/industrial/{userId}`: the link and its funding. */
export interface FundedSeasonLink extends SeasonLink {
  funding: SeasonFunding;
}

/** `POST seasons/{id}/accept`. */
export interface AcceptedSeasonLink extends SeasonLinkSaved {
  funding: SeasonFunding;
}

/** A row of `GET clusters/industrial/{userId}` ('Financement de la saison'). */
export interface IndustrialSeason extends SeasonAmounts {
  /** The season's id. */
  id: number;
  label: string;
  from: string;
  to: string;
  isActive: boolean;
  linkId: number;
  status: LinkStatus | string;
  expiresAt: string;
  acceptedAt: string | null;
}

/** The bell's open invitations (`GET seasons/invitations`). */
export interface SeasonInvitation {
  linkId: number;
  seasonId: number;
  label: string;
  from: string;
  to: string;
  quantity: number;
  attachedAt: string;
  expiresAt: string;
}

/** The fertilizer catalogue (`GET clusters/fertilizer-types`, `…/fertilizer-types/{type}`). */
export interface FertilizerType {
  id: number;
  code: string;
  label: string;
}

export interface Fertilizer {
  id: number;
  label: string;
  type: { id: number; label: string };
}

/** An aggregator of the autocomplete (`GET clusters/industrials?q&limit=20`). */
export interface IndustrialOption {
  id: string;
  firstname: string;
  lastname: string;
  organization: { id: string; denomination: string } | null;
}
