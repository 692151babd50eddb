import { BusinessRuleError, ConflictError, ForbiddenError, NotFoundError } from '@filiere/platform';
import { debtStreamId, openDebt, type DebtState } from '../../../contracts/index.js';
import type { GuessCounter } from '@filiere/platform';
import { deliveryDebtId, deliverySettlementId } from '../../../kernel/references.js';
import { ROLE } from '../../../kernel/roles.js';
import {
  evolveWallet,
  settleHold,
  walletEvent,
  walletStreamId,
  type WalletState,
} from '../../../wallet/index.js';
import type { SeasonActor } from '../../domain/index.js';
import { assignmentHoldId, type AreaDecision, type AssignmentState } from '../../inputs/index.js';
import { requestEvent, requestStreamId, type RequestState } from '../../requests/index.js';

export const DELIVERY_MESSAGES = {
  incorrectCode: 'Le code du producteur que vous avez saisi est incorrect',
  codeRequired: 'Saisissez le code du producteur : il prouve que le producteur a reçu ses intrants',
  tooManyGuesses: (wait: string) => `Trop de codes incorrects. Réessayez dans ${wait}.`,
  tooManyGuessesForGrower: (wait: string) =>
    `Trop de codes incorrects pour ce producteur. Réessayez dans ${wait}.`,
  requestNotFound: 'Demande introuvable',
  notInput: 'Cette demande n’est pas une demande d’intrants',
  notAccepted: 'Cette demande n’a pas été acceptée : elle ne peut pas être livrée',
  alreadyDelivered: 'Ces intrants ont déjà été livrés',
  notYourRequest: 'Cette demande ne vous concerne pas',
  noProvider:
    'Aucun fournisseur actif de cet intrant pour cette saison : la livraison est impossible',
  notProvider: 'Vous n’êtes pas fournisseur de cet intrant pour cette saison',
  banned: 'Ce fournisseur a été banni de la saison : il ne peut plus livrer',
  holdShort:
    'La réservation de ce fournisseur ne couvre plus cette livraison : l’agrégateur doit assigner un fournisseur avec une quantité suffisante',
  roles: 'Seuls l’agrégateur de la saison et ses fournisseurs d’intrants livrent par code',
} as const;

/**
 * Wrong delivery codes allowed before a 429, per caller (provider or industrial: its
 * find-by-code lookups and its confirmations together) and per grower (every caller's
 * confirmations of that grower's requests). A code is `AGW_` + 6 digits: at 10 guesses in
 * 15 minutes, finding one grower's code takes years on average.
 */
export const CODE_GUESS_LIMITS = {
  perCaller: { max: 10, windowMs: 15 * 60_000 },
  perGrower: { max: 5, windowMs: 15 * 60_000 },
} as const;

/** A wait in whole minutes, rounded up ('1 minute', '15 minutes'). */
const waitMinutes = (waitMs: number): string => {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `${minutes} minute${minutes > 1 ? 's' : ''}`;
};

/** The counters a guess of a delivery code is taken on (the grower's only when known). */
export function codeGuessCounters(callerUserId: string, growerId?: string): GuessCounter[] {
  return [
    {
      key: `delivery-code|caller|${callerUserId}`,
      window: CODE_GUESS_LIMITS.perCaller,
      message: (waitMs) => DELIVERY_MESSAGES.tooManyGuesses(waitMinutes(waitMs)),
    },
    ...(growerId
      ? [
          {
            key: `delivery-code|grower|${growerId}`,
            window: CODE_GUESS_LIMITS.perGrower,
            message: (waitMs: number) =>
              DELIVERY_MESSAGES.tooManyGuessesForGrower(waitMinutes(waitMs)),
          },
        ]
      : []),
  ];
}

/** A code as the grower reads it out: case and surrounding spaces do not matter. */
export const normalizeDeliveryCode = (code: string): string => code.trim().toUpperCase();

/**
 * The debt an input delivery opens, one per request (a second one is a 409), and the
 * settlement of the assignment's hold for a request (a repeat is a no-op): the kernel's,
 * which shows the settlement's payments under the advance's reference.
 */
export { deliveryDebtId, deliverySettlementId } from '../../../kernel/references.js';

export interface DeliveryAnswer {
  requestId: number;
  reference: string;
  assignmentId: number;
  providerUserId: string;
  amount: number;
  debtId: string;
  deliveredAt: string;
  status: 'DONE';
}

/** The request's checks shared by the code lookup and the delivery. */
export function requireDeliverable(request: RequestState): void {
  if (!request.exists) throw new NotFoundError(DELIVERY_MESSAGES.requestNotFound);
  if (request.type !== 'INPUT') throw new BusinessRuleError(DELIVERY_MESSAGES.notInput);
  if (request.status !== 'CONFIRMED' || !request.delivery) {
    throw new BusinessRuleError(DELIVERY_MESSAGES.notAccepted);
  }
  if (request.delivery.status === 'DONE') {
    throw new ConflictError(DELIVERY_MESSAGES.alreadyDelivered, { reason: 'ALREADY_DELIVERED' });
  }
}

/** The remaining amount of an assignment's hold (0 unless ACTIVE). */
export function holdRemaining(wallet: WalletState, assignment: AssignmentState): number {
  const hold = wallet.holds.get(assignmentHoldId(assignment.assignmentId!));
  if (!hold || hold.status !== 'ACTIVE') return 0;
  return (hold as { remaining?: number }).remaining ?? hold.amount;
}

/**
 * Which assignment pays a request: the provider's own ACTIVE assignment for that fertilizer
 * in that link; when the industrial confirms, the ACTIVE one whose hold keeps the most.
 * Null when none.
 */
export function payingAssignment(
  request: Pick<RequestState, 'linkId' | 'fertilizerId'>,
  actor: SeasonActor,
  assignments: readonly AssignmentState[],
  wallet: WalletState,
): AssignmentState | null {
  const candidates = assignments.filter(
    (a) =>
      a.exists &&
      a.status === 'ACTIVE' &&
      a.linkId === request.linkId &&
      a.fertilizerId === request.fertilizerId,
  );
  if (actor.role === ROLE.INPUT_PROVIDER) {
    return candidates.find((a) => a.providerUserId === actor.userId) ?? null;
  }
  let best: AssignmentState | null = null;
  for (const a of candidates) {
    if (!best || holdRemaining(wallet, a) > holdRemaining(wallet, best)) best = a;
  }
  return best;
}

/**
 * Reach on a request: its industrial, or a provider whose ACTIVE assignment is for that
 * line (403 otherwise); staff do not deliver.
 */
export function requireReach(
  request: RequestState,
  actor: SeasonActor,
  assignment: AssignmentState | null,
): void {
  if (actor.role === ROLE.INDUSTRIAL) {
    if (request.industrialUserId !== actor.userId) {
      throw new ForbiddenError(DELIVERY_MESSAGES.notYourRequest);
    }
    return;
  }
  if (actor.role === ROLE.INPUT_PROVIDER) {
    if (!assignment || assignment.providerUserId !== actor.userId) {
      throw new ForbiddenError(DELIVERY_MESSAGES.notProvider);
    }
    return;
  }
  throw new ForbiddenError(DELIVERY_MESSAGES.roles);
}

/**
 * The grower's proof of delivery: the request's code, which only the grower (and its
 * aggregator) hold. A wrong one is a 422 that writes nothing (`INCORRECT_CODE`, counted as
 * a guess by the command).
 */
export function requireCode(request: RequestState, code: string): void {
  if (!request.delivery?.code || normalizeDeliveryCode(code) !== request.delivery.code) {
    throw new BusinessRuleError(DELIVERY_MESSAGES.incorrectCode, { reason: 'INCORRECT_CODE' });
  }
}

/**
 * POST input-provider/make-delivery/{requestId} with the grower's code: the request is DONE
 * (`InputDelivered`), the provider is paid the request's amount from the assignment's hold
 * (kept ACTIVE for the next deliveries), and the grower owes the industrial that amount (an
 * AVANCE_SUR_INTRANT debt) — one decision over the request, the two wallets and the debt.
 * A request already DONE is a 409: a second confirmation (double click, two devices)
 * writes nothing. Reach and the request's state are checked before the code, so a refusal
 * for another reason says nothing about the code.
 */
export function deliverInput(
  states: {
    request: RequestState;
    wallet: WalletState;
    providerWallet: WalletState;
    debt: DebtState;
  },
  facts: {
    actor: SeasonActor;
    /** The code the caller typed (the grower's proof that the inputs were handed over). */
    code: string;
    assignment: AssignmentState | null;
    providerWalletId: string;
    now: Date;
  },
): AreaDecision<DeliveryAnswer> {
  const { request, wallet } = states;
  if (!request.exists) throw new NotFoundError(DELIVERY_MESSAGES.requestNotFound);
  requireReach(request, facts.actor, facts.assignment);
  requireDeliverable(request);
  requireCode(request, facts.code);
  const assignment = facts.assignment;
  if (!assignment) throw new BusinessRuleError(DELIVERY_MESSAGES.noProvider);
  const holdId = assignmentHoldId(assignment.assignmentId!);
  const hold = wallet.holds.get(holdId);
  if (!hold || hold.status === 'RELEASED') throw new BusinessRuleError(DELIVERY_MESSAGES.banned);
  const requestId = request.requestId!;
  const amount = request.amount;
  if (holdRemaining(wallet, assignment) < amount) {
    throw new BusinessRuleError(DELIVERY_MESSAGES.holdShort, {
      missingAmount: amount - holdRemaining(wallet, assignment),
    });
  }
  // A provider paid for the first time: its wallet is opened in the same append.
  const opening = states.providerWallet.opened
    ? []
    : [
        walletEvent('WalletOpened', {
          walletId: facts.providerWalletId,
          ownerUserId: assignment.providerUserId,
        }),
      ];
  const providerWallet = opening.reduce(evolveWallet, states.providerWallet);
  const settled = settleHold(
    { wallet, destinations: { [facts.providerWalletId]: providerWallet } },
    {
      holdId,
      settlementId: deliverySettlementId(requestId),
      payments: [{ walletId: facts.providerWalletId, amount }],
      closeHold: false,
      allowExcess: false,
    },
  );
  const debtId = deliveryDebtId(requestId);
  const debt = openDebt(
    states.debt,
    {
      debtId,
      kind: 'AVANCE_SUR_INTRANT',
      creditorUserId: request.industrialUserId!,
      debtorGrowerId: request.growerId!,
      principal: amount,
      sourceContractId: `request-${requestId}`,
    },
    { now: facts.now.toISOString() },
  );
  const deliveredAt = facts.now.toISOString();
  const event = requestEvent('InputDelivered', {
    requestId,
    assignmentId: assignment.assignmentId!,
    providerUserId: assignment.providerUserId,
    amount,
    debtId,
    deliveredBy: facts.actor.userId,
    deliveredAt,
  });
  const providerStream = walletStreamId(facts.providerWalletId);
  const settledWrites = settled.writes.map((w) =>
    w.streamId === providerStream ? { ...w, events: [...opening, ...w.events] } : w,
  );
  return {
    writes: [
      { streamId: requestStreamId(requestId), events: [event] },
      ...settledWrites,
      ...debt.writes,
    ],
    result: {
      requestId,
      reference: request.reference,
      assignmentId: assignment.assignmentId!,
      providerUserId: assignment.providerUserId,
      amount,
      debtId,
      deliveredAt,
      status: 'DONE',
    },
  };
}

export { debtStreamId };
