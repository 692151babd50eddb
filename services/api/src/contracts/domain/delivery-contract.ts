import {
  beninDay,
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import { ROLE } from '../../kernel/roles.js';
import {
  acceptanceErrors,
  issuedEvent,
  MAX_WRONG_CODES,
  type CodeToIssue,
  type EnteredCode,
} from './acceptance.js';
import { contractStreamId, type ContractState, type ContractStatus } from './contract-stream.js';
import { decision, type ContractActor, type Decision, type StreamWrite } from './decision.js';
import { contractEvent, type QualityGrade } from './events.js';
import { formatFcfa } from './money.js';

/**
 * A delivery contract's life (docs/contracts.md): created PENDING with its hold and the
 * grower's acceptance code → accepted and CONFIRMED → DELIVERED → COMPLETED by a run, or
 * OUTTIME / CANCELED.
 *
 * Invariant: a contract is DELIVERED (and so run) only after the grower's consent is on its
 * stream (DeliveryContractAccepted, acceptance.ts); the acceptance is recorded at most once,
 * in the same append as DeliveryContractConfirmed.
 */

const isAdmin = (actor: ContractActor) =>
  actor.role === ROLE.ADMIN || actor.role === ROLE.SUPER_ADMIN;

/** The 422 of §8, with the missing amount also as data for the web's modal. */
export function insufficientBalanceError(missingAmount: number): BusinessRuleError {
  return new BusinessRuleError(
    `Le solde disponible de votre wallet est insuffisant pour créer ce contrat. Il manque ${formatFcfa(missingAmount)} FCFA`,
    { missingAmount },
  );
}

/** What the wallet must do in the same append: place a hold on the aggregator's wallet. */
export interface HoldToPlace {
  holdId: string;
  aggregatorUserId: string;
  amount: number;
  purpose: string;
}

export interface ContractAnswer {
  contractId: string;
  reference: string;
  status: ContractStatus;
}

const answer = (state: ContractState, status = state.status!): ContractAnswer => ({
  contractId: state.contractId!,
  reference: state.reference,
  status,
});

/** Today + 5 months (same day of month, clamped to the month's last day), ISO date. */
export function defaultDeliveryDate(today: string): string {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const month = m - 1 + 5;
  const year = y + Math.floor(month / 12);
  const monthIndex = month % 12;
  const last = new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, monthIndex, Math.min(d, last))).toISOString().slice(0, 10);
}

export interface CreateDeliveryContract {
  contractId: string;
  reference: string;
  parentId?: string | null;
  growerId: string;
  growerUserId: string;
  plotId: string;
  productType?: 'CAYENNE_LISSE' | 'PAIN_DE_SUCRE' | null;
  quantityKg: number;
  amount: number;
  /** ISO date; absent → today + 5 months. */
  deliveryDate?: string | undefined;
  /** The acceptance code sent to the grower's phone; null when the grower has no phone. */
  acceptanceCode?: CodeToIssue | null;
}

/**
 * Creates a PENDING delivery contract for the calling aggregator and states the hold to
 * place for its amount. `facts.availableBalance` is the aggregator's available balance (the
 * wallet's decider checks it again in the same append); short → 422 with the missing amount.
 * `facts.plotOfGrower` says the plot belongs to the grower (looked up in the actors' tables).
 */
export function createDeliveryContract(
  state: ContractState,
  command: CreateDeliveryContract,
  actor: ContractActor,
  facts: { now: string; availableBalance: number; plotOfGrower: boolean },
): Decision<{ contract: ContractAnswer; hold: HoldToPlace }> {
  if (actor.role !== ROLE.INDUSTRIAL) {
    throw new ForbiddenError('Seul un agrégateur peut créer un contrat de livraison');
  }
  if (state.exists) throw new ConflictError('Ce contrat existe déjà');
  const fields: Record<string, string> = {};
  if (!Number.isSafeInteger(command.quantityKg) || command.quantityKg <= 0) {
    fields.quantity = 'Entré non valide';
  }
  if (!Number.isSafeInteger(command.amount) || command.amount <= 0) {
    fields.amount = 'Entré non valide';
  }
  const today = beninDay(facts.now);
  const deliveryDate = command.deliveryDate ?? defaultDeliveryDate(today);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(deliveryDate) || Number.isNaN(Date.parse(deliveryDate))) {
    fields.deliveryDate = 'Ce champ est obligatoire';
  } else if (deliveryDate < today) {
    fields.deliveryDate = 'La date de livraison ne peut pas être passée';
  }
  if (!facts.plotOfGrower) fields.productId = 'Cette parcelle n’appartient pas à ce producteur';
  if (Object.keys(fields).length > 0) {
    throw new ValidationError('Contrat de livraison invalide', { fields });
  }
  if (command.amount > facts.availableBalance) {
    throw insufficientBalanceError(command.amount - Math.max(0, facts.availableBalance));
  }
  const holdId = `contract-${command.contractId}`;
  return decision(
    {
      contract: { contractId: command.contractId, reference: command.reference, status: 'PENDING' },
      hold: {
        holdId,
        aggregatorUserId: actor.userId,
        amount: command.amount,
        purpose: `Contrat de livraison ${command.reference}`,
      },
    },
    {
      streamId: contractStreamId(command.contractId),
      events: [
        contractEvent('DeliveryContractCreated', {
          contractId: command.contractId,
          reference: command.reference,
          parentId: command.parentId ?? null,
          aggregatorUserId: actor.userId,
          growerId: command.growerId,
          growerUserId: command.growerUserId,
          plotId: command.plotId,
          productType: command.productType ?? null,
          quantityKg: command.quantityKg,
          amount: command.amount,
          deliveryDate,
          holdId,
          createdBy: actor.userId,
          createdAt: facts.now,
        }),
        ...(command.acceptanceCode
          ? [issuedEvent(command.contractId, command.acceptanceCode, actor, facts.now)]
          : []),
      ],
    },
  );
}

export function requireContract(state: ContractState): string {
  if (!state.exists || state.contractId === null) throw new NotFoundError('Contrat introuvable');
  return state.contractId;
}

function requireAggregatorOrAdmin(state: ContractState, actor: ContractActor): void {
  if (actor.userId !== state.aggregatorUserId && !isAdmin(actor)) {
    throw new ForbiddenError('Ce contrat ne vous appartient pas');
  }
}

/** The answer of 'Confirmer'; `wrongCode` when the code entered was wrong (recorded). */
export type ConfirmAnswer = ContractAnswer & { wrongCode?: { remaining: number } };

/**
 * PENDING → CONFIRMED with the grower's consent (acceptance.ts): by the grower signed in
 * (GROWER_SIGNED_IN), or by the user of its cooperative (`facts.cooperativeUserId`, or null)
 * with the code sent to the grower (`facts.code`, hashed with that code's salt). A wrong
 * code records AcceptanceCodeRejected and answers `wrongCode`; a locked code, no code sent
 * or no code entered is refused. Confirming a CONFIRMED contract again is a no-op.
 * `facts.replyFrom`: the grower answered the offer by SMS from that phone (`OUI <code>`): his
 * code is checked as his cooperative's entry is (same attempts), and only when it answers the
 * code sent to that very phone.
 */
export function confirmDeliveryContract(
  state: ContractState,
  actor: ContractActor,
  facts: {
    now: string;
    cooperativeUserId: string | null;
    code?: EnteredCode | null;
    replyFrom?: string;
  },
): Decision<ConfirmAnswer> {
  const contractId = requireContract(state);
  const byGrower = actor.userId === state.growerUserId;
  const mayConfirm =
    byGrower || (facts.cooperativeUserId !== null && actor.userId === facts.cooperativeUserId);
  if (!mayConfirm) {
    throw new ForbiddenError('Seul le producteur ou sa coopérative peut confirmer ce contrat');
  }
  if (state.status === 'CONFIRMED') return decision(answer(state));
  if (state.status !== 'PENDING') {
    throw new BusinessRuleError('Ce contrat n’est plus en attente de confirmation');
  }
  const streamId = contractStreamId(contractId);
  const confirmed = (acceptance: {
    method: 'CODE' | 'GROWER_SIGNED_IN';
    phone: string | null;
    codeId: string | null;
    codeHash: string | null;
  }) =>
    decision<ConfirmAnswer>(answer(state, 'CONFIRMED'), {
      streamId,
      events: [
        contractEvent('DeliveryContractConfirmed', {
          contractId,
          confirmedBy: actor.userId,
          confirmedAt: facts.now,
        }),
        contractEvent('DeliveryContractAccepted', {
          contractId,
          ...acceptance,
          acceptedBy: actor.userId,
          acceptedAt: facts.now,
        }),
      ],
    });
  if (byGrower && facts.replyFrom === undefined) {
    return confirmed({ method: 'GROWER_SIGNED_IN', phone: null, codeId: null, codeHash: null });
  }
  const current = state.acceptanceCode;
  if (!current) throw acceptanceErrors.none();
  if (facts.replyFrom !== undefined && (!byGrower || facts.replyFrom !== current.phone)) {
    throw acceptanceErrors.none();
  }
  if (!facts.code) {
    throw new ValidationError('Saisissez le code reçu par le producteur', {
      fields: { code: 'Ce champ est obligatoire' },
    });
  }
  if (current.wrongAttempts >= MAX_WRONG_CODES) throw acceptanceErrors.locked();
  if (facts.code.codeId !== current.codeId || facts.code.codeHash !== current.codeHash) {
    const wrongAttempts = current.wrongAttempts + 1;
    return decision<ConfirmAnswer>(
      { ...answer(state), wrongCode: { remaining: MAX_WRONG_CODES - wrongAttempts } },
      {
        streamId,
        events: [
          contractEvent('AcceptanceCodeRejected', {
            contractId,
            codeId: current.codeId,
            enteredBy: actor.userId,
            wrongAttempts,
            at: facts.now,
          }),
        ],
      },
    );
  }
  return confirmed({
    method: 'CODE',
    phone: current.phone,
    codeId: current.codeId,
    codeHash: current.codeHash,
  });
}

/** What a grower's `OUI <code>` by SMS did (acceptByReply). */
export type ReplyAcceptance =
  | { outcome: 'accepted'; reference: string }
  | { outcome: 'wrong'; remaining: number }
  | { outcome: 'locked' }
  | { outcome: 'none' };

/**
 * The grower's `OUI <code>` from `phone`, decided over his contracts as one command: `entered`
 * holds, per contract id, the code hashed with the salt of that contract's current code. The
 * code accepts the one PENDING contract whose current code it is, sent to that phone and not
 * locked; a code that answers none is a wrong attempt on each such contract still open, so a
 * guess spends what it would at 'Confirmer'; the code of a contract he already accepted by
 * code answers that acceptance again and spends nothing. One decision, so one message's effect
 * is appended at most once, with its idempotency record.
 */
export function acceptByReply(
  states: readonly ContractState[],
  entered: ReadonlyMap<string, EnteredCode>,
  grower: ContractActor,
  facts: { now: string; phone: string },
): Decision<ReplyAcceptance> {
  const offered = states.filter(
    (s) =>
      s.exists &&
      s.status === 'PENDING' &&
      s.growerUserId === grower.userId &&
      s.acceptanceCode?.phone === facts.phone &&
      entered.has(s.contractId!),
  );
  const replyOn = (state: ContractState) =>
    confirmDeliveryContract(state, grower, {
      now: facts.now,
      cooperativeUserId: null,
      code: entered.get(state.contractId!)!,
      replyFrom: facts.phone,
    });
  const open = offered.filter((s) => s.acceptanceCode!.wrongAttempts < MAX_WRONG_CODES);
  const right = open.find((s) => {
    const code = entered.get(s.contractId!)!;
    return code.codeId === s.acceptanceCode!.codeId && code.codeHash === s.acceptanceCode!.codeHash;
  });
  if (right) {
    return {
      writes: replyOn(right).writes,
      result: { outcome: 'accepted', reference: right.reference },
    };
  }
  // The code of a contract he already accepted by it, sent again in another message (typed
  // twice, or resent for want of an answer): answered as accepted, no attempt spent elsewhere.
  const again = states.find((s) => {
    const code = entered.get(s.contractId!);
    return (
      s.exists &&
      s.status !== 'PENDING' &&
      s.growerUserId === grower.userId &&
      s.acceptance?.method === 'CODE' &&
      s.acceptance.phone === facts.phone &&
      code?.codeId === s.acceptanceCode?.codeId &&
      code?.codeHash === s.acceptanceCode?.codeHash
    );
  });
  if (again) return decision({ outcome: 'accepted', reference: again.reference });
  if (open.length === 0) return decision({ outcome: offered.length > 0 ? 'locked' : 'none' });
  let remaining = MAX_WRONG_CODES;
  const writes: StreamWrite[] = [];
  for (const state of open) {
    const wrong = replyOn(state);
    writes.push(...wrong.writes);
    if (wrong.result.wrongCode) remaining = Math.min(remaining, wrong.result.wrongCode.remaining);
  }
  return { writes, result: { outcome: 'wrong', remaining } };
}

/**
 * CONFIRMED → DELIVERED: the aggregator records the weighed quantity (kg) and the date of
 * the delivery (not in the future, not before the contract). The same record again is a
 * no-op; another once delivered is refused.
 */
export function recordDelivery(
  state: ContractState,
  command: { deliveredKg: number; deliveredOn: string; grade?: QualityGrade | undefined },
  actor: ContractActor,
  facts: { now: string },
): Decision<ContractAnswer> {
  const contractId = requireContract(state);
  requireAggregatorOrAdmin(state, actor);
  if (state.status === 'DELIVERED' || state.status === 'COMPLETED') {
    if (state.deliveredKg === command.deliveredKg && state.deliveredOn === command.deliveredOn) {
      return decision(answer(state));
    }
    throw new BusinessRuleError('La livraison de ce contrat est déjà enregistrée');
  }
  if (state.status !== 'CONFIRMED') {
    throw new BusinessRuleError(
      state.status === 'PENDING'
        ? 'Ce contrat n’est pas encore confirmé par le producteur'
        : 'Ce contrat ne peut plus être livré',
    );
  }
  if (state.acceptance === null) {
    throw new BusinessRuleError(
      'Ce contrat n’a pas l’accord du producteur : il ne peut pas être livré',
      {
        reason: 'ACCEPTANCE_MISSING',
      },
    );
  }
  const fields: Record<string, string> = {};
  if (!Number.isSafeInteger(command.deliveredKg) || command.deliveredKg <= 0) {
    fields.quantity = 'Entré non valide';
  }
  const today = beninDay(facts.now);
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(command.deliveredOn) ||
    Number.isNaN(Date.parse(command.deliveredOn))
  ) {
    fields.deliveredOn = 'Ce champ est obligatoire';
  } else if (command.deliveredOn > today) {
    fields.deliveredOn = 'La date de livraison ne peut pas être dans le futur';
  } else if (command.deliveredOn < beninDay(state.createdAt)) {
    fields.deliveredOn = 'La date de livraison précède le contrat';
  }
  if (Object.keys(fields).length > 0) {
    throw new ValidationError('Livraison invalide', { fields });
  }
  return decision(answer(state, 'DELIVERED'), {
    streamId: contractStreamId(contractId),
    events: [
      contractEvent('DeliveryRecorded', {
        contractId,
        deliveredKg: command.deliveredKg,
        deliveredOn: command.deliveredOn,
        ...(command.grade ? { grade: command.grade } : {}),
        recordedBy: actor.userId,
        recordedAt: facts.now,
      }),
    ],
  });
}

/**
 * The scheduled job: a CONFIRMED contract whose delivery date has passed (the date is before
 * today) becomes OUTTIME. Anything else decides nothing (the job may run any number of times).
 */
export function markOutOfTime(
  state: ContractState,
  facts: { now: string },
): Decision<ContractAnswer | null> {
  if (!state.exists || state.status !== 'CONFIRMED') {
    return decision(state.exists ? answer(state) : null);
  }
  if (state.deliveryDate >= beninDay(facts.now)) return decision(answer(state));
  return decision(answer(state, 'OUTTIME'), {
    streamId: contractStreamId(state.contractId!),
    events: [
      contractEvent('DeliveryContractOutOfTime', {
        contractId: state.contractId!,
        deliveryDate: state.deliveryDate,
        at: facts.now,
      }),
    ],
  });
}

/** What the wallet must do in the same append: release the contract's hold. */
export interface HoldToRelease {
  holdId: string;
  aggregatorUserId: string;
  amount: number;
}

/**
 * PENDING, CONFIRMED or OUTTIME → CANCELED by its aggregator or an admin; states the hold to
 * release. Cancelling twice is a no-op; a delivered or paid contract cannot be cancelled.
 */
export function cancelDeliveryContract(
  state: ContractState,
  actor: ContractActor,
  facts: { now: string },
): Decision<{ contract: ContractAnswer; release: HoldToRelease | null }> {
  const contractId = requireContract(state);
  requireAggregatorOrAdmin(state, actor);
  if (state.status === 'CANCELED') return decision({ contract: answer(state), release: null });
  if (state.status === 'DELIVERED' || state.status === 'COMPLETED') {
    throw new BusinessRuleError('Un contrat livré ne peut plus être annulé');
  }
  return decision(
    {
      contract: answer(state, 'CANCELED'),
      release: {
        holdId: state.holdId,
        aggregatorUserId: state.aggregatorUserId,
        amount: state.amount,
      },
    },
    {
      streamId: contractStreamId(contractId),
      events: [
        contractEvent('DeliveryContractCanceled', {
          contractId,
          canceledBy: actor.userId,
          releasedAmount: state.amount,
          at: facts.now,
        }),
      ],
    },
  );
}
