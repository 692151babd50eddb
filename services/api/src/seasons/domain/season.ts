import {
  beninDay,
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import { ROLE } from '../../kernel/roles.js';
import { computeAmounts, hasAtMostTwoDecimals, type LinkAmounts } from './amounts.js';
import { seasonEvent, type FertilizerLine, type SeasonEvent } from './events.js';
import { seasonStreamId, type SeasonLink, type SeasonState } from './season-stream.js';

/** Who issues a command: a signed-in user (role code) or SYSTEM (the expiry job). */
export interface SeasonActor {
  userId: string;
  role: string;
}

export interface SeasonWrite {
  streamId: string;
  events: SeasonEvent[];
}

/** What a decider returns: events for the season's stream (possibly none) and its answer. */
export interface Decision<R> {
  writes: SeasonWrite[];
  result: R;
}

const decision = <R>(result: R, seasonId: number, events: SeasonEvent[]): Decision<R> => ({
  writes: events.length ? [{ streamId: seasonStreamId(seasonId), events }] : [],
  result,
});

export const SEASON_MESSAGES = {
  notFound: 'Saison introuvable',
  archived: 'Cette saison est archivée',
  adminOnly: 'Seul le super administrateur gère les saisons',
  required: 'Ce champ est obligatoire',
  invalid: 'Entré non valide',
  labelTooLong: 'Le nom de la saison doit faire au plus 200 caractères',
  fromBeforeToday: 'La date de début ne peut pas être antérieure à aujourd’hui',
  toBeforeFrom: 'La date de fin doit être postérieure ou égale à la date de début',
  priceMin:
    'Le champ Montant estimé d’un kg d’ananas doit avoir une valeur supérieure ou égale à 1',
  yieldMin: 'Le champ Rendement de production doit avoir une valeur supérieure ou égale à 1',
  quotityRange: 'Le champ Quotité doit avoir une valeur comprise entre 0 et 100',
  twoDecimals: 'Deux décimales au plus',
  fertilizerUnknown: 'Intrant introuvable dans le catalogue',
  fertilizerType: 'Cet intrant n’est pas de ce type d’engrais',
  fertilizerTwice: 'Cet intrant figure déjà dans la saison',
  fertilizerAmountMin: 'Le montant unitaire doit avoir une valeur supérieure ou égale à 1',
  fertilizerIndexMin: 'La dose par hectare doit avoir une valeur supérieure ou égale à 1',
  pricingLocked:
    'Un agrégateur a déjà accepté cette saison : son prix, son rendement, sa quotité et ses intrants ne peuvent plus être modifiés',
  alreadyActive: 'La saison est déjà active',
  ended: 'La saison est terminée : on ne peut plus y ajouter d’agrégateur',
  industrialNotFound: 'Agrégateur introuvable',
  notIndustrial: 'Cet utilisateur n’est pas un agrégateur',
  industrialInactive: 'Le compte de cet agrégateur n’est pas actif',
  alreadyConfirmed: 'Cet agrégateur a déjà accepté cette saison',
  quantityMin: 'La quantité doit être un nombre entier de kg supérieur ou égal à 1',
  notInvited: 'Vous n’êtes pas invité à cette saison',
  alreadyAccepted: 'Vous avez déjà accepté cette saison',
  archivedNoAccept: 'Cette saison a été archivée : elle ne peut plus être acceptée',
  linkNotFound: 'Cet agrégateur n’est pas rattaché à cette saison',
  detachConfirmed: 'Cet agrégateur a déjà accepté la saison : il ne peut plus en être retiré',
} as const;

/** 'le 29/11/2026 à 21:15' in Benin's time (UTC+1), for the expiry messages. */
export function frenchDateTime(iso: string): string {
  const parts = new Intl.DateTimeFormat('fr-FR', {
    timeZone: 'Africa/Porto-Novo',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `le ${get('day')}/${get('month')}/${get('year')} à ${get('hour')}:${get('minute')}`;
}

export const expiredMessage = (expiresAt: string): string =>
  `Cette invitation a expiré ${frenchDateTime(expiresAt)} : elle ne peut plus être acceptée`;

/** Today's date in Benin ('YYYY-MM-DD'): the rule "start date minimum today". */
export function beninToday(now: Date): string {
  return beninDay(now);
}

export interface SeasonInput {
  label: string;
  from: string;
  to: string;
  unitProductAmount: number;
  productionIndex: number;
  quotity: number;
  fertilizers: { fertilizerId: number; typeId: number; amount: number; index: number }[];
}

/** The fertilizer catalogue as the decider needs it: each fertilizer id → its type id. */
export type FertilizerCatalogue = ReadonlyMap<number, { typeId: number }>;

export interface SeasonAnswer {
  seasonId: number;
  label: string;
  from: string;
  to: string;
  unitProductAmount: number;
  productionIndex: number;
  quotity: number;
  fertilizers: FertilizerLine[];
  isActive: boolean;
}

const answerOf = (s: SeasonState): SeasonAnswer => ({
  seasonId: s.seasonId!,
  label: s.label,
  from: s.from,
  to: s.to,
  unitProductAmount: s.unitProductAmount,
  productionIndex: s.productionIndex,
  quotity: s.quotity,
  fertilizers: s.fertilizers,
  isActive: s.isActive,
});

function requireAdmin(actor: SeasonActor): void {
  if (actor.role !== ROLE.SUPER_ADMIN) throw new ForbiddenError(SEASON_MESSAGES.adminOnly);
}

function requireSeason(state: SeasonState): number {
  if (!state.exists || state.seasonId === null) throw new NotFoundError(SEASON_MESSAGES.notFound);
  if (state.archived) throw new ConflictError(SEASON_MESSAGES.archived, { reason: 'ARCHIVED' });
  return state.seasonId;
}

const isDate = (s: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(s) &&
  !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
  new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/**
 * The rules of seasons.md §5 on a season's fields and its fertilizer lines (400 with the
 * fields at fault). `checkFrom`: the start date must not be before today (on create, and
 * on edit when the start date changes).
 */
export function validateSeason(
  input: SeasonInput,
  facts: { today: string; checkFrom: boolean; catalogue: FertilizerCatalogue },
): SeasonInput {
  const fields: Record<string, string> = {};
  const label = input.label.trim();
  if (!label) fields.label = SEASON_MESSAGES.required;
  else if (label.length > 200) fields.label = SEASON_MESSAGES.labelTooLong;
  if (!isDate(input.from)) fields.from = SEASON_MESSAGES.invalid;
  else if (facts.checkFrom && input.from < facts.today)
    fields.from = SEASON_MESSAGES.fromBeforeToday;
  if (!isDate(input.to)) fields.to = SEASON_MESSAGES.invalid;
  else if (isDate(input.from) && input.to < input.from) fields.to = SEASON_MESSAGES.toBeforeFrom;
  if (!Number.isSafeInteger(input.unitProductAmount) || input.unitProductAmount < 1) {
    fields.unitProductAmount = SEASON_MESSAGES.priceMin;
  }
  if (!(input.productionIndex >= 1)) fields.productionIndex = SEASON_MESSAGES.yieldMin;
  else if (!hasAtMostTwoDecimals(input.productionIndex)) {
    fields.productionIndex = SEASON_MESSAGES.twoDecimals;
  }
  if (!(input.quotity >= 0 && input.quotity <= 100)) fields.quotity = SEASON_MESSAGES.quotityRange;
  else if (!hasAtMostTwoDecimals(input.quotity)) fields.quotity = SEASON_MESSAGES.twoDecimals;
  const seen = new Set<number>();
  input.fertilizers.forEach((line, i) => {
    const at = `fertilizers.${i}`;
    const known = facts.catalogue.get(line.fertilizerId);
    if (!known) fields[`${at}.fertilizerId`] = SEASON_MESSAGES.fertilizerUnknown;
    else if (known.typeId !== line.typeId) fields[`${at}.typeId`] = SEASON_MESSAGES.fertilizerType;
    else if (seen.has(line.fertilizerId)) {
      fields[`${at}.fertilizerId`] = SEASON_MESSAGES.fertilizerTwice;
    }
    seen.add(line.fertilizerId);
    if (!Number.isSafeInteger(line.amount) || line.amount < 1) {
      fields[`${at}.amount`] = SEASON_MESSAGES.fertilizerAmountMin;
    }
    if (!(line.index >= 1)) fields[`${at}.index`] = SEASON_MESSAGES.fertilizerIndexMin;
    else if (!hasAtMostTwoDecimals(line.index)) fields[`${at}.index`] = SEASON_MESSAGES.twoDecimals;
  });
  const first = Object.values(fields)[0];
  if (first) throw new ValidationError(first, { fields });
  return { ...input, label };
}

/** Creates season `seasonId` (a fresh id from the sequence). Super admin only. */
export function createSeason(
  state: SeasonState,
  input: SeasonInput,
  facts: { actor: SeasonActor; seasonId: number; today: string; catalogue: FertilizerCatalogue },
): Decision<SeasonAnswer> {
  requireAdmin(facts.actor);
  if (state.exists) throw new ConflictError('Cette saison existe déjà');
  const valid = validateSeason(input, { ...facts, checkFrom: true });
  const event = seasonEvent('SeasonCreated', {
    seasonId: facts.seasonId,
    ...valid,
    createdBy: facts.actor.userId,
  });
  return decision({ ...valid, seasonId: facts.seasonId, isActive: false }, facts.seasonId, [event]);
}

const samePricing = (s: SeasonState, input: SeasonInput) =>
  s.unitProductAmount === input.unitProductAmount &&
  s.productionIndex === input.productionIndex &&
  s.quotity === input.quotity &&
  s.fertilizers.length === input.fertilizers.length &&
  s.fertilizers.every((line, i) => {
    const other = input.fertilizers[i]!;
    return (
      line.fertilizerId === other.fertilizerId &&
      line.typeId === other.typeId &&
      line.amount === other.amount &&
      line.index === other.index
    );
  });

/**
 * Edits a season. Once an industrial has accepted, its pricing (price, yield, quotity,
 * fertilizer lines) is what that industrial agreed to: only the name and dates may change
 * (409 otherwise). The pending invitations are repriced with the new pricing.
 */
export function editSeason(
  state: SeasonState,
  input: SeasonInput,
  facts: { actor: SeasonActor; today: string; catalogue: FertilizerCatalogue },
): Decision<SeasonAnswer> {
  requireAdmin(facts.actor);
  const seasonId = requireSeason(state);
  const valid = validateSeason(input, { ...facts, checkFrom: input.from !== state.from });
  const links = Object.values(state.links);
  const pricingChanged = !samePricing(state, valid);
  if (pricingChanged && links.some((l) => l.status === 'CONFIRMED')) {
    throw new ConflictError(SEASON_MESSAGES.pricingLocked, { reason: 'PRICING_LOCKED' });
  }
  const repriced = pricingChanged
    ? links
        .filter((l) => l.status === 'PENDING')
        .map((l) => ({ linkId: l.linkId, userId: l.userId, ...computeAmounts(valid, l.quantity) }))
    : [];
  const event = seasonEvent('SeasonEdited', {
    seasonId,
    ...valid,
    editedBy: facts.actor.userId,
    repriced,
  });
  return decision({ ...valid, seasonId, isActive: state.isActive }, seasonId, [event]);
}

/** Archives (soft-deletes) a season: it leaves the lists, its history stays. */
export function archiveSeason(state: SeasonState, actor: SeasonActor): Decision<SeasonAnswer> {
  requireAdmin(actor);
  const seasonId = requireSeason(state);
  return decision({ ...answerOf(state), isActive: false }, seasonId, [
    seasonEvent('SeasonArchived', { seasonId, archivedBy: actor.userId }),
  ]);
}

/** 'Activer': isActive becomes true (409 when it already is). */
export function activateSeason(state: SeasonState, actor: SeasonActor): Decision<SeasonAnswer> {
  requireAdmin(actor);
  const seasonId = requireSeason(state);
  if (state.isActive) throw new ConflictError(SEASON_MESSAGES.alreadyActive);
  return decision({ ...answerOf(state), isActive: true }, seasonId, [
    seasonEvent('SeasonActivated', { seasonId, activatedBy: actor.userId }),
  ]);
}

function requireQuantity(quantity: number): void {
  if (!Number.isSafeInteger(quantity) || quantity < 1) {
    throw new ValidationError(SEASON_MESSAGES.quantityMin, {
      fields: { quantity: SEASON_MESSAGES.quantityMin },
    });
  }
}

/** The three amount cards for `quantity` kg in this season (nothing written). */
export function previewAmounts(state: SeasonState, quantity: number): LinkAmounts {
  requireSeason(state);
  requireQuantity(quantity);
  return computeAmounts(state, quantity);
}

/** The industrial being attached, looked up outside the decider. */
export interface IndustrialFacts {
  userId: string;
  role: string;
  status: 'ACTIVE' | 'INACTIVE' | 'DELETED';
}

export interface LinkAnswer extends LinkAmounts {
  linkId: number;
  seasonId: number;
  userId: string;
  status: SeasonLink['status'];
  expiresAt: string;
}

const linkAnswer = (seasonId: number, link: SeasonLink): LinkAnswer => ({
  linkId: link.linkId,
  seasonId,
  userId: link.userId,
  status: link.status,
  quantity: link.quantity,
  productionAmount: link.productionAmount,
  fertilizerAmount: link.fertilizerAmount,
  minSupplyAmount: link.minSupplyAmount,
  expiresAt: link.expiresAt,
});

/**
 * Attaches an industrial with its desired quantity (kg): an invitation (PENDING) that
 * expires `invitationDays` after now. An industrial already invited, or whose invitation
 * expired, is invited again with the new quantity (same link, new expiry); one that has
 * accepted cannot be attached again (409). Not once the season has ended (422).
 */
export function attachIndustrial(
  state: SeasonState,
  command: { industrialId: string; quantity: number },
  facts: {
    actor: SeasonActor;
    industrial: IndustrialFacts | null;
    /** A fresh link id (used when the industrial has no link yet). */
    newLinkId: number;
    now: Date;
    invitationDays: number;
  },
): Decision<LinkAnswer> {
  requireAdmin(facts.actor);
  const seasonId = requireSeason(state);
  requireQuantity(command.quantity);
  const industrial = facts.industrial;
  if (!industrial || industrial.status === 'DELETED') {
    throw new NotFoundError(SEASON_MESSAGES.industrialNotFound);
  }
  if (industrial.role !== ROLE.INDUSTRIAL) {
    throw new BusinessRuleError(SEASON_MESSAGES.notIndustrial, { reason: 'NOT_INDUSTRIAL' });
  }
  if (industrial.status !== 'ACTIVE') {
    throw new BusinessRuleError(SEASON_MESSAGES.industrialInactive, { reason: 'INACTIVE' });
  }
  if (state.to < beninToday(facts.now)) {
    throw new BusinessRuleError(SEASON_MESSAGES.ended, { reason: 'SEASON_ENDED' });
  }
  const existing = state.links[industrial.userId];
  if (existing?.status === 'CONFIRMED') {
    throw new ConflictError(SEASON_MESSAGES.alreadyConfirmed, { reason: 'ALREADY_CONFIRMED' });
  }
  const amounts = computeAmounts(state, command.quantity);
  const attachedAt = facts.now.toISOString();
  const expiresAt = new Date(
    facts.now.getTime() + facts.invitationDays * 24 * 3600 * 1000,
  ).toISOString();
  const linkId = existing?.linkId ?? facts.newLinkId;
  const event = seasonEvent('IndustrialAttached', {
    seasonId,
    linkId,
    userId: industrial.userId,
    ...amounts,
    attachedAt,
    expiresAt,
    attachedBy: facts.actor.userId,
  });
  return decision(
    {
      linkId,
      seasonId,
      userId: industrial.userId,
      status: 'PENDING',
      ...amounts,
      expiresAt,
    },
    seasonId,
    [event],
  );
}

/**
 * The industrial accepts its invitation (optionally with another quantity): CONFIRMED,
 * whatever its balance. 404 when it is not invited; 422 once expired (or CANCELED), already
 * accepted, or the season archived.
 */
export function acceptInvitation(
  state: SeasonState,
  command: { quantity?: number | undefined },
  facts: { actor: SeasonActor; now: Date },
): Decision<LinkAnswer> {
  if (!state.exists || state.seasonId === null) throw new NotFoundError(SEASON_MESSAGES.notFound);
  const seasonId = state.seasonId;
  const link = state.links[facts.actor.userId];
  if (!link) throw new NotFoundError(SEASON_MESSAGES.notInvited);
  if (state.archived) {
    throw new BusinessRuleError(SEASON_MESSAGES.archivedNoAccept, { reason: 'ARCHIVED' });
  }
  if (link.status === 'CONFIRMED') {
    throw new BusinessRuleError(SEASON_MESSAGES.alreadyAccepted, { reason: 'ALREADY_ACCEPTED' });
  }
  if (link.status === 'CANCELED' || facts.now.getTime() >= Date.parse(link.expiresAt)) {
    throw new BusinessRuleError(expiredMessage(link.expiresAt), {
      reason: 'INVITATION_EXPIRED',
      expiresAt: link.expiresAt,
    });
  }
  const quantity = command.quantity ?? link.quantity;
  requireQuantity(quantity);
  const amounts = computeAmounts(state, quantity);
  const acceptedAt = facts.now.toISOString();
  const event = seasonEvent('IndustrialAccepted', {
    seasonId,
    linkId: link.linkId,
    userId: link.userId,
    ...amounts,
    acceptedAt,
  });
  return decision({ ...linkAnswer(seasonId, link), ...amounts, status: 'CONFIRMED' }, seasonId, [
    event,
  ]);
}

/**
 * The scheduled expiry: a PENDING invitation past its `expiresAt` becomes CANCELED. Anything
 * else (accepted, already expired, re-invited with a later expiry, detached) writes nothing,
 * so the job may run it any number of times.
 */
export function expireInvitation(
  state: SeasonState,
  command: { userId: string },
  facts: { now: Date },
): Decision<{ expired: boolean }> {
  const link = state.links[command.userId];
  if (
    !state.exists ||
    state.seasonId === null ||
    !link ||
    link.status !== 'PENDING' ||
    facts.now.getTime() < Date.parse(link.expiresAt)
  ) {
    return { writes: [], result: { expired: false } };
  }
  return decision({ expired: true }, state.seasonId, [
    seasonEvent('InvitationExpired', {
      seasonId: state.seasonId,
      linkId: link.linkId,
      userId: link.userId,
      expiredAt: link.expiresAt,
    }),
  ]);
}

/**
 * Removes an industrial's link ('DELETE clusters/delete-industrial-link/{id}'): only while
 * it has not accepted (409 otherwise: what it accepted stays).
 */
export function detachIndustrial(
  state: SeasonState,
  command: { linkId: number },
  actor: SeasonActor,
): Decision<{ linkId: number; userId: string }> {
  requireAdmin(actor);
  const seasonId = requireSeason(state);
  const link = Object.values(state.links).find((l) => l.linkId === command.linkId);
  if (!link) throw new NotFoundError(SEASON_MESSAGES.linkNotFound);
  if (link.status === 'CONFIRMED') {
    throw new ConflictError(SEASON_MESSAGES.detachConfirmed, { reason: 'ALREADY_CONFIRMED' });
  }
  return decision({ linkId: link.linkId, userId: link.userId }, seasonId, [
    seasonEvent('IndustrialDetached', {
      seasonId,
      linkId: link.linkId,
      userId: link.userId,
      detachedBy: actor.userId,
    }),
  ]);
}
