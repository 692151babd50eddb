import {
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import { ROLE } from '../../../kernel/roles.js';
import { placeHold, releaseHold, type WalletState } from '../../../wallet/index.js';
import { ceilDiv, hundredths, type SeasonActor, type SeasonState } from '../../domain/index.js';
import { inputEvent, type InputEvent } from './events.js';

export type AssignmentStatus = 'ACTIVE' | 'BANNED';

/** The folded state of stream `seasoninput-<assignmentId>`. */
export interface AssignmentState {
  exists: boolean;
  assignmentId: number | null;
  seasonId: number;
  linkId: number;
  industrialUserId: string;
  providerUserId: string;
  fertilizerId: number;
  typeId: number;
  quantityKg: number;
  unitAmount: number;
  amount: number;
  holdId: string;
  status: AssignmentStatus;
  /** What the ban released of the hold (0 while ACTIVE). */
  released: number;
}

export const assignmentStreamId = (assignmentId: number): string => `seasoninput-${assignmentId}`;
export const assignmentHoldId = (assignmentId: number): string =>
  `input-assignment-${assignmentId}`;

export function initialAssignmentState(): AssignmentState {
  return {
    exists: false,
    assignmentId: null,
    seasonId: 0,
    linkId: 0,
    industrialUserId: '',
    providerUserId: '',
    fertilizerId: 0,
    typeId: 0,
    quantityKg: 0,
    unitAmount: 0,
    amount: 0,
    holdId: '',
    status: 'ACTIVE',
    released: 0,
  };
}

export function evolveAssignment(state: AssignmentState, event: InputEvent): AssignmentState {
  switch (event.type) {
    case 'InputProviderAssigned': {
      const { assignedBy: _by, assignedAt: _at, ...fields } = event.data;
      return { ...initialAssignmentState(), ...fields, exists: true, status: 'ACTIVE' };
    }
    case 'InputProviderBanned':
      return { ...state, status: 'BANNED', released: event.data.released };
    default:
      return state;
  }
}

export const INPUT_MESSAGES = {
  notIndustrial: 'Seul l’agrégateur de la saison gère ses fournisseurs d’intrants',
  notYourLink: 'Vous ne pouvez gérer que les fournisseurs de vos propres saisons',
  linkNotFound: 'Cette saison n’est pas rattachée à cet agrégateur',
  seasonNotFound: 'Saison introuvable',
  archived: 'Cette saison est archivée',
  notConfirmed: 'Veuillez accepter la saison avant afin d’ajouter un fournisseur d’intrant',
  providerNotFound: 'Fournisseur d’intrant introuvable',
  providerInactive: 'Ce fournisseur d’intrant n’est pas actif',
  providerFertilizer: 'Ce fournisseur ne fournit pas cet intrant',
  fertilizerNotInSeason: 'Cet intrant ne figure pas dans la saison',
  alreadyAssigned: 'Ce fournisseur est déjà assigné à cet intrant pour cette saison',
  quantityMin: 'La quantité doit être un nombre entier de kg supérieur ou égal à 1',
  assignmentNotFound: 'Fournisseur de la saison introuvable',
  alreadyBanned: 'Ce fournisseur est déjà banni de cette saison',
  amountTooLarge: 'La quantité demandée donne un montant trop élevé : réduisez la quantité',
} as const;

/** 'La quantité d'intrant doit être inférieur ou égale à {max}' (seasons.md §2.6). */
export const maxQuantityMessage = (max: number): string =>
  `La quantité d'intrant doit être inférieur ou égale à ${max}`;

/** Thousands grouped by a space (§9), for the messages. */
export const formatFcfa = (amount: number): string =>
  String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/** The 422 of an assignment the industrial's available balance does not cover. */
export function shortfallError(missingAmount: number): BusinessRuleError {
  return new BusinessRuleError(
    `Le solde disponible de votre wallet est insuffisant pour ajouter ce fournisseur. Il manque ${formatFcfa(missingAmount)} FCFA : approvisionnez votre wallet pour continuer`,
    { reason: 'INSUFFICIENT_BALANCE', missingAmount },
  );
}

/**
 * The kg of a fertilizer line an assignment still takes: all of it while ACTIVE; once
 * banned, what was delivered (the released part is given back to the line).
 */
export function assignedKg(a: AssignmentState): number {
  if (a.status === 'ACTIVE') return a.quantityKg;
  return Math.max(0, a.quantityKg - Math.floor(a.released / a.unitAmount));
}

/**
 * The dose of a fertilizer line for a link: ceil(H × d_i) kg with H = Q / (Y × 1000)
 * hectares, exactly (Y and d_i carry two decimals: hundredths on BigInt).
 */
export function lineDoseKg(
  season: Pick<SeasonState, 'productionIndex'>,
  line: { index: number },
  linkQuantityKg: number,
): number {
  return Number(
    ceilDiv(
      BigInt(linkQuantityKg) * hundredths(line.index),
      hundredths(season.productionIndex) * 1000n,
    ),
  );
}

/**
 * The maximum quantity still assignable for a fertilizer in an industrial's link:
 * ceil(H × d_i) − Σ kg already assigned for that line in that link (never below 0).
 */
export function maxQuantity(
  season: SeasonState,
  linkUserId: string,
  fertilizerId: number,
  assignments: readonly AssignmentState[],
): number {
  const link = season.links[linkUserId];
  const line = season.fertilizers.find((f) => f.fertilizerId === fertilizerId);
  if (!link || !line) return 0;
  const taken = assignments
    .filter((a) => a.exists && a.linkId === link.linkId && a.fertilizerId === fertilizerId)
    .reduce((sum, a) => sum + assignedKg(a), 0);
  return Math.max(0, lineDoseKg(season, line, link.quantity) - taken);
}

export interface AreaWrite {
  streamId: string;
  events: readonly { type: string; data: unknown }[];
}

/** Events per stream (the area's and the wallet's, appended together) and the answer. */
export interface AreaDecision<R> {
  writes: AreaWrite[];
  result: R;
}

export interface ProviderFacts {
  userId: string;
  active: boolean;
  /** The fertilizers the supplier supplies (actors' supplier_fertilizers). */
  fertilizerIds: readonly number[];
}

export interface AssignmentAnswer {
  assignmentId: number;
  seasonId: number;
  linkId: number;
  providerUserId: string;
  fertilizerId: number;
  typeId: number;
  quantityKg: number;
  unitAmount: number;
  amount: number;
  holdId: string;
  status: AssignmentStatus;
  /** The spec's answer: the maximum still assignable for that fertilizer after this one. */
  computedQte: number;
}

const answerOf = (a: AssignmentState, computedQte: number): AssignmentAnswer => ({
  assignmentId: a.assignmentId!,
  seasonId: a.seasonId,
  linkId: a.linkId,
  providerUserId: a.providerUserId,
  fertilizerId: a.fertilizerId,
  typeId: a.typeId,
  quantityKg: a.quantityKg,
  unitAmount: a.unitAmount,
  amount: a.amount,
  holdId: a.holdId,
  status: a.status,
  computedQte,
});

/** The industrial's CONFIRMED link of the season, with the checks every command shares. */
export function requireOwnConfirmedLink(
  season: SeasonState,
  linkId: number,
  actor: SeasonActor,
): SeasonState['links'][string] {
  if (actor.role !== ROLE.INDUSTRIAL) throw new ForbiddenError(INPUT_MESSAGES.notIndustrial);
  if (!season.exists) throw new NotFoundError(INPUT_MESSAGES.seasonNotFound);
  const link = Object.values(season.links).find((l) => l.linkId === linkId);
  if (!link) throw new NotFoundError(INPUT_MESSAGES.linkNotFound);
  if (link.userId !== actor.userId) throw new ForbiddenError(INPUT_MESSAGES.notYourLink);
  if (season.archived) throw new ConflictError(INPUT_MESSAGES.archived, { reason: 'ARCHIVED' });
  if (link.status !== 'CONFIRMED') {
    throw new BusinessRuleError(INPUT_MESSAGES.notConfirmed, { reason: 'SEASON_NOT_CONFIRMED' });
  }
  return link;
}

/**
 * POST user-cluster-input-provider: the industrial assigns a provider to a fertilizer line
 * of its CONFIRMED link, up to the line's remaining dose; the amount (kg × a_i) is held on
 * its wallet in the same append (422 with the missing amount when short).
 */
export function assignProvider(
  states: { assignment: AssignmentState; season: SeasonState; wallet: WalletState },
  command: { linkId: number; fertilizerId: number; quantityKg: number },
  facts: {
    actor: SeasonActor;
    assignmentId: number;
    now: Date;
    provider: ProviderFacts | null;
    /** Every assignment of that link (folded from their streams). */
    assignments: readonly AssignmentState[];
  },
): AreaDecision<AssignmentAnswer> {
  const { season, wallet } = states;
  const link = requireOwnConfirmedLink(season, command.linkId, facts.actor);
  if (states.assignment.exists) throw new ConflictError('Cette assignation existe déjà');
  const { provider } = facts;
  if (!provider) throw new NotFoundError(INPUT_MESSAGES.providerNotFound);
  if (!provider.active) throw new BusinessRuleError(INPUT_MESSAGES.providerInactive);
  const line = season.fertilizers.find((f) => f.fertilizerId === command.fertilizerId);
  if (!line) {
    throw new BusinessRuleError(INPUT_MESSAGES.fertilizerNotInSeason, {
      fields: { fertilizerId: INPUT_MESSAGES.fertilizerNotInSeason },
    });
  }
  if (!provider.fertilizerIds.includes(command.fertilizerId)) {
    throw new BusinessRuleError(INPUT_MESSAGES.providerFertilizer, {
      fields: { inputProviderId: INPUT_MESSAGES.providerFertilizer },
    });
  }
  if (!Number.isSafeInteger(command.quantityKg) || command.quantityKg < 1) {
    throw new ValidationError(INPUT_MESSAGES.quantityMin, {
      fields: { quantity: INPUT_MESSAGES.quantityMin },
    });
  }
  const duplicate = facts.assignments.some(
    (a) =>
      a.exists &&
      a.status === 'ACTIVE' &&
      a.linkId === link.linkId &&
      a.fertilizerId === command.fertilizerId &&
      a.providerUserId === provider.userId,
  );
  if (duplicate) throw new ConflictError(INPUT_MESSAGES.alreadyAssigned);
  const max = maxQuantity(season, link.userId, command.fertilizerId, facts.assignments);
  if (command.quantityKg > max) {
    const message = maxQuantityMessage(max);
    throw new BusinessRuleError(message, { maxQuantity: max, fields: { quantity: message } });
  }
  const amount = BigInt(command.quantityKg) * BigInt(line.amount);
  if (amount > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new BusinessRuleError(INPUT_MESSAGES.amountTooLarge);
  }
  const total = Number(amount);
  const available = wallet.opened ? wallet.availableBalance : 0;
  if (total > available) throw shortfallError(total - available);
  const holdId = assignmentHoldId(facts.assignmentId);
  const hold = placeHold(wallet, {
    holdId,
    amount: total,
    purpose: `Fournisseur d’intrant, saison ${season.seasonId} : ${command.quantityKg} kg × ${line.amount} F CFA`,
  });
  const event = inputEvent('InputProviderAssigned', {
    assignmentId: facts.assignmentId,
    seasonId: season.seasonId!,
    linkId: link.linkId,
    industrialUserId: link.userId,
    providerUserId: provider.userId,
    fertilizerId: line.fertilizerId,
    typeId: line.typeId,
    quantityKg: command.quantityKg,
    unitAmount: line.amount,
    amount: total,
    holdId,
    assignedBy: facts.actor.userId,
    assignedAt: facts.now.toISOString(),
  });
  const assigned = evolveAssignment(states.assignment, event);
  return {
    writes: [{ streamId: assignmentStreamId(facts.assignmentId), events: [event] }, ...hold.writes],
    result: answerOf(assigned, max - command.quantityKg),
  };
}

/**
 * DELETE user-cluster-input-provider/{id}: the industrial bans a provider from its season.
 * What remains of the hold goes back to its available balance (what was already paid for
 * deliveries stays paid); requests still waiting for that fertilizer are delivered by
 * another ACTIVE provider of the line. Banning twice is a 409.
 */
export function banProvider(
  states: { assignment: AssignmentState; wallet: WalletState },
  facts: { actor: SeasonActor; now: Date },
): AreaDecision<AssignmentAnswer & { released: number }> {
  const { assignment, wallet } = states;
  if (!assignment.exists) throw new NotFoundError(INPUT_MESSAGES.assignmentNotFound);
  const isOwner =
    facts.actor.role === ROLE.INDUSTRIAL && facts.actor.userId === assignment.industrialUserId;
  if (!isOwner && facts.actor.role !== ROLE.SUPER_ADMIN) {
    throw new ForbiddenError(INPUT_MESSAGES.notYourLink);
  }
  if (assignment.status === 'BANNED') throw new ConflictError(INPUT_MESSAGES.alreadyBanned);
  const hold = wallet.holds.get(assignment.holdId);
  const releasing = hold?.status === 'ACTIVE';
  // `remaining` (amount − captured − released) once holds can be settled in parts.
  const released = releasing ? ((hold as { remaining?: number }).remaining ?? hold.amount) : 0;
  const release = releasing ? releaseHold(wallet, { holdId: assignment.holdId }).writes : [];
  const event = inputEvent('InputProviderBanned', {
    assignmentId: assignment.assignmentId!,
    bannedBy: facts.actor.userId,
    bannedAt: facts.now.toISOString(),
    released,
  });
  const banned = evolveAssignment(assignment, event);
  return {
    writes: [
      { streamId: assignmentStreamId(assignment.assignmentId!), events: [event] },
      ...release,
    ],
    result: { ...answerOf(banned, 0), released },
  };
}
