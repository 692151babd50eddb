import type { CommandWrite } from '@filiere/event-store';
import {
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import { openDebt, type DebtState } from '../../../contracts/index.js';
import { ROLE } from '../../../kernel/roles.js';
import {
  evolveWallet,
  openWallet,
  transfer,
  type Recipient,
  type WalletState,
} from '../../../wallet/index.js';
import {
  DELIVERY_CODE,
  requestEvent,
  requestReference,
  type RequestEvent,
  type RequestType,
} from './events.js';
import { requestStreamId, type RequestState } from './request-stream.js';

/** Who issues a command: a signed-in user (its role code). */
export interface RequestActor {
  userId: string;
  role: string;
}

/** Events per stream (the request's, and for PINEAPLE/SOCIAL the wallets' and the debt's). */
export interface Decision<R> {
  writes: CommandWrite[];
  result: R;
}

export const REQUEST_MESSAGES = {
  required: 'Ce champ est obligatoire',
  invalid: 'Entré non valide',
  quantityMin: 'La quantité doit être un nombre entier supérieur ou égal à 1',
  amountMin: 'Le montant doit être un nombre entier supérieur ou égal à 1',
  amountTooHigh: 'Le montant demandé est trop élevé',
  growerNotFound: 'Producteur introuvable',
  growerInactive: 'Ce producteur est désactivé : il ne peut pas faire de demande',
  notYourGrower:
    'Vous ne pouvez faire une demande que pour vous-même ou les producteurs de votre coopérative',
  fileRoles: 'Seul un producteur ou sa coopérative peut faire une demande',
  seasonNotFound: 'Saison introuvable',
  seasonArchived: 'Cette saison est archivée',
  seasonInactive: 'Cette saison n’est pas active',
  seasonEnded: 'Cette saison est terminée',
  noIndustrial:
    'Aucun agrégateur de votre cluster n’a accepté cette saison : la demande ne peut pas lui être adressée',
  fertilizerNotInSeason: 'Cet intrant ne fait pas partie de cette saison',
  sfdNotFound: 'SFD introuvable',
  sfdInactive: 'Le compte de ce SFD n’est pas actif',
  notFound: 'Demande introuvable',
  notYours: 'Cette demande ne vous est pas adressée',
  alreadyAccepted: 'Cette demande a déjà été acceptée',
  alreadyRejected: 'Cette demande a déjà été rejetée',
  noProvider: 'Aucun fournisseur d’intrant n’est affecté pour cet engrais',
  reasonRequired: 'Le motif est obligatoire',
  reasonTooLong: 'Le motif doit faire au plus 1000 caractères',
} as const;

const grouping = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });
/** `1 250 000` with a plain space (the web's grouping). */
export const formatAmount = (amount: number): string => grouping.format(amount).replace(/\s/g, ' ');

// ---------------------------------------------------------------------------------------------
// Filing

export interface FileRequestInput {
  type: RequestType;
  seasonId: number;
  growerId: string;
  /** INPUT: the fertilizer (a line of the season). */
  fertilizerId?: number | undefined;
  /** INPUT: kg of fertilizer; PINEAPLE: kg of pineapple to deliver. */
  quantityKg?: number | undefined;
  /** PINEAPLE, SOCIAL: the amount asked (F CFA). */
  amount?: number | undefined;
  /** SOCIAL: the SFD asked. */
  sfdUserId?: string | undefined;
}

/** What the command service looked up for a filing. */
export interface FileRequestFacts {
  requestId: number;
  actor: RequestActor;
  now: Date;
  /** Today in Benin ('YYYY-MM-DD'). */
  today: string;
  grower: {
    growerId: string;
    userId: string;
    active: boolean;
    /** The user of the grower's cooperative (its representative), when it has one. */
    cooperativeUserId: string | null;
  } | null;
  season: {
    exists: boolean;
    archived: boolean;
    isActive: boolean;
    to: string;
    /** aᵢ by fertilizer id. */
    lines: ReadonlyMap<number, { amount: number }>;
  };
  /** INPUT, PINEAPLE: the CONFIRMED link of the grower's cluster's industrial in the season. */
  link: { linkId: number; industrialUserId: string } | null;
  /** SOCIAL: the SFD's account. */
  sfd: { userId: string; role: string; active: boolean } | null;
}

export interface RequestAnswer {
  requestId: number;
  reference: string;
  type: RequestType;
  status: 'CREATED' | 'CONFIRMED' | 'REJECTED';
  seasonId: number;
  amount: number;
  quantityKg: number | null;
  fertilizerId: number | null;
  industrialUserId: string | null;
  sfdUserId: string | null;
  code: string | null;
}

const answerOf = (s: RequestState): RequestAnswer => ({
  requestId: s.requestId!,
  reference: s.reference,
  type: s.type!,
  status: s.status,
  seasonId: s.seasonId!,
  amount: s.amount,
  quantityKg: s.quantityKg,
  fertilizerId: s.fertilizerId,
  industrialUserId: s.industrialUserId,
  sfdUserId: s.sfdUserId,
  code: s.delivery?.code ?? null,
});

const isPositiveInteger = (n: unknown): n is number =>
  typeof n === 'number' && Number.isSafeInteger(n) && n >= 1;

function fieldError(fields: Record<string, string>): never {
  throw new ValidationError('Demande invalide', { fields });
}

/**
 * A grower (its own) or its cooperative's user (for its growers) files a request in an active
 * season. INPUT and PINEAPLE go to the grower's cluster's industrial, which must have accepted
 * the season (its CONFIRMED link); INPUT names a fertilizer of the season's lines and a
 * quantity in kg (amount = kg × aᵢ); PINEAPLE the amount asked and the kg of pineapple to
 * deliver; SOCIAL the amount asked of an active SFD.
 */
export function fileRequest(
  state: RequestState,
  input: FileRequestInput,
  facts: FileRequestFacts,
): Decision<RequestAnswer> {
  const { actor } = facts;
  if (actor.role !== ROLE.GROWER && actor.role !== ROLE.FARMER_ORGANIZATION) {
    throw new ForbiddenError(REQUEST_MESSAGES.fileRoles);
  }
  const grower = facts.grower;
  if (!grower) throw new NotFoundError(REQUEST_MESSAGES.growerNotFound);
  const mine =
    actor.role === ROLE.GROWER
      ? grower.userId === actor.userId
      : grower.cooperativeUserId === actor.userId;
  if (!mine) throw new ForbiddenError(REQUEST_MESSAGES.notYourGrower);
  if (!grower.active) throw new BusinessRuleError(REQUEST_MESSAGES.growerInactive);
  if (state.exists) throw new ConflictError('Cette demande existe déjà');

  const { season } = facts;
  if (!season.exists) throw new NotFoundError(REQUEST_MESSAGES.seasonNotFound);
  if (season.archived) throw new ConflictError(REQUEST_MESSAGES.seasonArchived);
  if (!season.isActive) throw new BusinessRuleError(REQUEST_MESSAGES.seasonInactive);
  if (season.to < facts.today) throw new BusinessRuleError(REQUEST_MESSAGES.seasonEnded);

  let amount: number;
  let quantityKg: number | null = null;
  let fertilizerId: number | null = null;
  let sfdUserId: string | null = null;
  switch (input.type) {
    case 'INPUT': {
      const fields: Record<string, string> = {};
      if (input.fertilizerId === undefined) fields.fertilizerId = REQUEST_MESSAGES.required;
      if (input.quantityKg === undefined) fields.quantityKg = REQUEST_MESSAGES.required;
      else if (!isPositiveInteger(input.quantityKg))
        fields.quantityKg = REQUEST_MESSAGES.quantityMin;
      if (Object.keys(fields).length) fieldError(fields);
      const line = season.lines.get(input.fertilizerId!);
      if (!line) fieldError({ fertilizerId: REQUEST_MESSAGES.fertilizerNotInSeason });
      quantityKg = input.quantityKg!;
      fertilizerId = input.fertilizerId!;
      const product = BigInt(quantityKg) * BigInt(line.amount);
      if (product > BigInt(Number.MAX_SAFE_INTEGER)) {
        fieldError({ quantityKg: REQUEST_MESSAGES.amountTooHigh });
      }
      amount = Number(product);
      break;
    }
    case 'PINEAPLE': {
      const fields: Record<string, string> = {};
      if (input.amount === undefined) fields.amount = REQUEST_MESSAGES.required;
      else if (!isPositiveInteger(input.amount)) fields.amount = REQUEST_MESSAGES.amountMin;
      if (input.quantityKg === undefined) fields.quantityKg = REQUEST_MESSAGES.required;
      else if (!isPositiveInteger(input.quantityKg))
        fields.quantityKg = REQUEST_MESSAGES.quantityMin;
      if (Object.keys(fields).length) fieldError(fields);
      amount = input.amount!;
      quantityKg = input.quantityKg!;
      break;
    }
    case 'SOCIAL': {
      const fields: Record<string, string> = {};
      if (input.amount === undefined) fields.amount = REQUEST_MESSAGES.required;
      else if (!isPositiveInteger(input.amount)) fields.amount = REQUEST_MESSAGES.amountMin;
      if (input.sfdUserId === undefined) fields.sfdUserId = REQUEST_MESSAGES.required;
      if (Object.keys(fields).length) fieldError(fields);
      const sfd = facts.sfd;
      if (!sfd || sfd.role !== ROLE.SFD) fieldError({ sfdUserId: REQUEST_MESSAGES.sfdNotFound });
      if (!sfd.active) throw new BusinessRuleError(REQUEST_MESSAGES.sfdInactive);
      amount = input.amount!;
      sfdUserId = sfd.userId;
      break;
    }
  }
  const link = input.type === 'SOCIAL' ? null : facts.link;
  if (input.type !== 'SOCIAL' && !link) {
    throw new BusinessRuleError(REQUEST_MESSAGES.noIndustrial, { reason: 'NO_INDUSTRIAL' });
  }

  const reference = requestReference(facts.requestId);
  const event = requestEvent('GrowerRequestFiled', {
    requestId: facts.requestId,
    reference,
    type: input.type,
    seasonId: input.seasonId,
    linkId: link?.linkId ?? null,
    industrialUserId: link?.industrialUserId ?? null,
    sfdUserId,
    growerId: grower.growerId,
    growerUserId: grower.userId,
    fertilizerId,
    quantityKg,
    amount,
    filedBy: actor.userId,
    filedAt: facts.now.toISOString(),
  });
  return {
    writes: [{ streamId: requestStreamId(facts.requestId), events: [event] }],
    result: {
      requestId: facts.requestId,
      reference,
      type: input.type,
      status: 'CREATED',
      seasonId: input.seasonId,
      amount,
      quantityKg,
      fertilizerId,
      industrialUserId: link?.industrialUserId ?? null,
      sfdUserId,
      code: null,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Accepting and rejecting

/** Who handles a request: its industrial (INPUT, PINEAPLE) or its SFD (SOCIAL). */
export const handlerOf = (s: RequestState): string | null =>
  s.type === 'SOCIAL' ? s.sfdUserId : s.industrialUserId;

function requireHandled(state: RequestState, actor: RequestActor): void {
  if (!state.exists || state.requestId === null) throw new NotFoundError(REQUEST_MESSAGES.notFound);
  const role = state.type === 'SOCIAL' ? ROLE.SFD : ROLE.INDUSTRIAL;
  if (actor.role !== role || handlerOf(state) !== actor.userId) {
    throw new ForbiddenError(REQUEST_MESSAGES.notYours);
  }
}

function requireCreated(state: RequestState): void {
  if (state.status === 'CONFIRMED') {
    throw new ConflictError(REQUEST_MESSAGES.alreadyAccepted, { reason: 'ALREADY_ACCEPTED' });
  }
  if (state.status === 'REJECTED') {
    throw new ConflictError(REQUEST_MESSAGES.alreadyRejected, { reason: 'ALREADY_REJECTED' });
  }
}

/** The debt an accepted PINEAPLE or SOCIAL request opens (one per request). */
export const requestDebtId = (requestId: number): string => `request-${requestId}`;

/** The wallet transfer's reference of an accepted PINEAPLE or SOCIAL request. */
export const requestTransferId = (requestId: number): string => `request-${requestId}`;

export interface AcceptStates {
  request: RequestState;
  /** PINEAPLE, SOCIAL: the payer's wallet (the industrial's or the SFD's). */
  payer?: WalletState;
  /** PINEAPLE, SOCIAL: the grower's wallet. */
  grower?: WalletState;
  /** PINEAPLE, SOCIAL: the debt's stream (not yet opened). */
  debt?: DebtState;
}

export interface AcceptFacts {
  actor: RequestActor;
  now: Date;
  /** INPUT: a code claimed for this request (`AGW_` + 6 digits, unique). */
  code?: string;
  /** INPUT: whether the link has an ACTIVE provider assignment for the fertilizer. */
  hasActiveProvider?: boolean;
  /** PINEAPLE, SOCIAL: the payer's and the grower's wallet ids, and the grower's account. */
  payerWalletId?: string;
  growerWalletId?: string;
  recipient?: Recipient;
  limits?: { maxCommandAmount: number; maxBalance: number };
}

/**
 * The industrial (INPUT, PINEAPLE) or the SFD (SOCIAL) accepts a CREATED request, which is
 * irreversible. INPUT: the request gets its delivery code and waits for the provider (422
 * when no provider is assigned for that fertilizer in the link). PINEAPLE / SOCIAL: the
 * amount goes from the payer's wallet to the grower's and the grower owes it back
 * (AVANCE_SUR_ANANAS to the industrial, FINANCEMENT_SOCIAL to the SFD), all in the same
 * append; 422 with the missing amount when the payer's available balance is short.
 */
export function acceptRequest(states: AcceptStates, facts: AcceptFacts): Decision<RequestAnswer> {
  const state = states.request;
  requireHandled(state, facts.actor);
  requireCreated(state);
  const requestId = state.requestId!;
  const at = facts.now.toISOString();
  const streamId = requestStreamId(requestId);

  if (state.type === 'INPUT') {
    if (!facts.hasActiveProvider) {
      throw new BusinessRuleError(REQUEST_MESSAGES.noProvider, { reason: 'NO_INPUT_PROVIDER' });
    }
    if (!facts.code || !DELIVERY_CODE.test(facts.code)) {
      throw new Error('acceptRequest: an INPUT acceptance needs a claimed code');
    }
    const accepted = requestEvent('GrowerRequestAccepted', {
      requestId,
      acceptedBy: facts.actor.userId,
      acceptedAt: at,
      code: facts.code,
      debtId: null,
      transferId: null,
    });
    return {
      writes: [{ streamId, events: [accepted] }],
      result: {
        ...answerOf(state),
        status: 'CONFIRMED',
        code: facts.code,
      },
    };
  }

  // PINEAPLE, SOCIAL: the money and the debt.
  const { payer, grower, debt } = states;
  if (!payer || !grower || !debt || !facts.payerWalletId || !facts.growerWalletId) {
    throw new Error(
      'acceptRequest: a PINEAPLE or SOCIAL acceptance needs both wallets and the debt',
    );
  }
  if (!facts.recipient) throw new Error('acceptRequest: the grower’s account is needed');
  if (state.amount > payer.availableBalance) {
    const missing = state.amount - payer.availableBalance;
    throw new BusinessRuleError(
      `Solde disponible insuffisant : il manque ${formatAmount(missing)} FCFA pour accepter la demande ${state.reference}`,
      { reason: 'INSUFFICIENT_BALANCE', missingAmount: missing },
    );
  }
  const transferId = requestTransferId(requestId);
  const label = state.type === 'PINEAPLE' ? 'Avance sur ananas' : 'Financement social';
  // A grower's wallet opens on its first money, in the same append.
  const opening = grower.opened
    ? []
    : openWallet(grower, { walletId: facts.growerWalletId, ownerUserId: facts.recipient.userId })
        .writes;
  const destination = opening
    .flatMap((w) => w.events)
    .reduce((wallet, event) => evolveWallet(wallet, event), grower);
  const moved = transfer(
    { source: payer, destination },
    {
      reference: transferId,
      sourceWalletId: facts.payerWalletId,
      destinationWalletId: facts.growerWalletId,
      amount: state.amount,
      reason: `${label} ${state.reference}`,
    },
    // The filed request is what puts the grower in its handler's reach (the industrial of
    // the grower's cluster, or the SFD the grower asked): the transfer's cluster scope is
    // the grower's; who may accept was checked above.
    {
      userId: facts.actor.userId,
      role: facts.actor.role,
      walletId: facts.payerWalletId,
      clusterId: facts.recipient.clusterId,
    },
    { recipient: facts.recipient, ...(facts.limits ? { limits: facts.limits } : {}) },
  );
  const debtId = requestDebtId(requestId);
  const opened = openDebt(
    debt,
    {
      debtId,
      kind: state.type === 'PINEAPLE' ? 'AVANCE_SUR_ANANAS' : 'FINANCEMENT_SOCIAL',
      creditorUserId: facts.actor.userId,
      debtorGrowerId: state.growerId!,
      principal: state.amount,
      sourceContractId: transferId,
    },
    { now: at },
  );
  const accepted: RequestEvent = requestEvent('GrowerRequestAccepted', {
    requestId,
    acceptedBy: facts.actor.userId,
    acceptedAt: at,
    code: null,
    debtId,
    transferId,
  });
  return {
    writes: [
      { streamId, events: [accepted] },
      ...moved.writes.map((w) => {
        const open = opening.find((o) => o.streamId === w.streamId);
        return open ? { streamId: w.streamId, events: [...open.events, ...w.events] } : w;
      }),
      ...opened.writes,
    ],
    result: { ...answerOf(state), status: 'CONFIRMED' },
  };
}

/** The handler rejects a CREATED request with a reason (required, at most 1000 characters). */
export function rejectRequest(
  state: RequestState,
  input: { reason?: string | undefined },
  facts: { actor: RequestActor; now: Date },
): Decision<RequestAnswer> {
  requireHandled(state, facts.actor);
  const reason = input.reason?.trim() ?? '';
  if (reason === '') {
    throw new ValidationError(REQUEST_MESSAGES.reasonRequired, {
      fields: { reason: REQUEST_MESSAGES.required },
    });
  }
  if (reason.length > 1000) {
    throw new ValidationError(REQUEST_MESSAGES.reasonTooLong, {
      fields: { reason: REQUEST_MESSAGES.reasonTooLong },
    });
  }
  requireCreated(state);
  const requestId = state.requestId!;
  return {
    writes: [
      {
        streamId: requestStreamId(requestId),
        events: [
          requestEvent('GrowerRequestRejected', {
            requestId,
            reason,
            rejectedBy: facts.actor.userId,
            rejectedAt: facts.now.toISOString(),
          }),
        ],
      },
    ],
    result: { ...answerOf(state), status: 'REJECTED' },
  };
}
