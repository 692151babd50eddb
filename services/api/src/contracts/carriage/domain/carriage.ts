import { defineEvent, type EventDefinition, type StreamType } from '@filiere/event-store';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@filiere/platform';
import { z } from 'zod';
import { ROLE } from '../../../kernel/roles.js';

/**
 * Carriage contracts (contrats de transport): an aggregator hires a carrier's vehicle for a
 * transport date at an amount (integer F CFA). Stream `carriage-<contractId>` (its own
 * category: the delivery contracts' `contract-` evolve knows nothing of these). The amount is
 * held on the aggregator's wallet in the creation's append; cancel releases the hold; pay
 * (once the transport date has come) settles the hold to the carrier's wallet, closing it.
 */
const id = z.string().min(1);
const money = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const instant = z.iso.datetime();

export const CarriageContractCreated = z.object({
  contractId: id,
  reference: id,
  aggregatorUserId: id,
  carrierId: id,
  carrierUserId: id,
  vehicleId: id,
  carType: z.string(),
  registration: z.string(),
  transportDate: isoDay,
  amount: money,
  description: z.string().max(1000).nullable(),
  holdId: id,
  createdBy: id,
  createdAt: instant,
});
export const CarriageContractCanceled = z.object({
  contractId: id,
  canceledBy: id,
  canceledAt: instant,
});
export const CarriageContractPaid = z.object({
  contractId: id,
  carrierWalletId: id,
  amount: money,
  paidBy: id,
  paidAt: instant,
});
export type CarriageCreatedData = z.infer<typeof CarriageContractCreated>;
export type CarriageCanceledData = z.infer<typeof CarriageContractCanceled>;
export type CarriagePaidData = z.infer<typeof CarriageContractPaid>;

export const carriageEvents: EventDefinition<string, any>[] = [
  defineEvent({ type: 'CarriageContractCreated', version: 1, schema: CarriageContractCreated }),
  defineEvent({ type: 'CarriageContractCanceled', version: 1, schema: CarriageContractCanceled }),
  defineEvent({ type: 'CarriageContractPaid', version: 1, schema: CarriageContractPaid }),
];

export type CarriageEvent =
  | { type: 'CarriageContractCreated'; data: CarriageCreatedData }
  | { type: 'CarriageContractCanceled'; data: CarriageCanceledData }
  | { type: 'CarriageContractPaid'; data: CarriagePaidData };

export type CarriageStatus = 'CREATED' | 'PAID' | 'CANCELED';

export interface CarriageState {
  exists: boolean;
  contractId: string | null;
  reference: string;
  status: CarriageStatus | null;
  aggregatorUserId: string;
  carrierUserId: string;
  transportDate: string;
  amount: number;
  holdId: string;
}

export const CARRIAGE_CATEGORY = 'carriage';
export const carriageStreamId = (contractId: string): string =>
  `${CARRIAGE_CATEGORY}-${contractId}`;
export const carriageHoldId = (contractId: string): string => `carriage-${contractId}`;

export const initialCarriageState = (): CarriageState => ({
  exists: false,
  contractId: null,
  reference: '',
  status: null,
  aggregatorUserId: '',
  carrierUserId: '',
  transportDate: '',
  amount: 0,
  holdId: '',
});

export function evolveCarriage(state: CarriageState, event: CarriageEvent): CarriageState {
  switch (event.type) {
    case 'CarriageContractCreated': {
      const d = event.data;
      return {
        exists: true,
        contractId: d.contractId,
        reference: d.reference,
        status: 'CREATED',
        aggregatorUserId: d.aggregatorUserId,
        carrierUserId: d.carrierUserId,
        transportDate: d.transportDate,
        amount: d.amount,
        holdId: d.holdId,
      };
    }
    case 'CarriageContractCanceled':
      return { ...state, status: 'CANCELED' };
    case 'CarriageContractPaid':
      return { ...state, status: 'PAID' };
    default:
      return state;
  }
}

export const carriageStream: StreamType<CarriageState> = {
  category: CARRIAGE_CATEGORY,
  initialState: initialCarriageState,
  evolve: (state, event) => evolveCarriage(state, event as unknown as CarriageEvent),
};

export interface CarriageActor {
  userId: string;
  role: string;
}
export interface CarriageAnswer {
  contractId: string;
  reference: string;
  status: CarriageStatus;
}
export interface CarriageDecision<R> {
  writes: { streamId: string; events: CarriageEvent[] }[];
  result: R;
}

export const CARRIAGE_MESSAGES = {
  notFound: 'Contrat de transport introuvable',
  forbidden: 'Ce contrat de transport ne vous appartient pas',
  alreadyPaid: 'Ce contrat de transport a déjà été payé',
  canceled: 'Ce contrat de transport a été annulé',
  exists: 'Ce contrat de transport existe déjà',
  notYet:
    'Le transport n’a pas encore eu lieu : le contrat pourra être payé à partir de sa date de transport',
} as const;

const answerOf = (state: CarriageState, status: CarriageStatus): CarriageAnswer => ({
  contractId: state.contractId!,
  reference: state.reference,
  status,
});

const isAdmin = (actor: CarriageActor) =>
  actor.role === ROLE.ADMIN || actor.role === ROLE.SUPER_ADMIN;

/** The hold to place comes back with the answer; the caller runs `placeHold` in the append. */
export function createCarriageContract(
  state: CarriageState,
  command: Omit<CarriageCreatedData, 'holdId' | 'createdBy' | 'createdAt' | 'aggregatorUserId'>,
  actor: CarriageActor,
  facts: { now: string },
): CarriageDecision<{
  contract: CarriageAnswer;
  hold: { holdId: string; amount: number; purpose: string };
}> {
  if (actor.role !== ROLE.INDUSTRIAL)
    throw new ForbiddenError('Seul un agrégateur crée un contrat de transport');
  if (state.exists) throw new ConflictError(CARRIAGE_MESSAGES.exists);
  if (!Number.isSafeInteger(command.amount) || command.amount <= 0) {
    throw new ValidationError('Contrat de transport invalide', {
      fields: { amount: 'Le montant doit être un entier positif' },
    });
  }
  const holdId = carriageHoldId(command.contractId);
  const data: CarriageCreatedData = {
    ...command,
    aggregatorUserId: actor.userId,
    holdId,
    createdBy: actor.userId,
    createdAt: facts.now,
  };
  const event: CarriageEvent = { type: 'CarriageContractCreated', data };
  return {
    writes: [{ streamId: carriageStreamId(command.contractId), events: [event] }],
    result: {
      contract: { contractId: command.contractId, reference: command.reference, status: 'CREATED' },
      hold: {
        holdId,
        amount: command.amount,
        purpose: `Contrat de transport ${command.reference}`,
      },
    },
  };
}

function requireOwnContract(state: CarriageState, actor: CarriageActor): void {
  if (!state.exists) throw new NotFoundError(CARRIAGE_MESSAGES.notFound);
  if (!isAdmin(actor) && state.aggregatorUserId !== actor.userId) {
    throw new ForbiddenError(CARRIAGE_MESSAGES.forbidden);
  }
}

/** Cancel (CREATED only): the answer names the hold to release in the same append. */
export function cancelCarriageContract(
  state: CarriageState,
  actor: CarriageActor,
  facts: { now: string },
): CarriageDecision<{ contract: CarriageAnswer; releaseHoldId: string | null }> {
  requireOwnContract(state, actor);
  if (state.status === 'CANCELED') {
    return { writes: [], result: { contract: answerOf(state, 'CANCELED'), releaseHoldId: null } };
  }
  if (state.status === 'PAID') throw new ConflictError(CARRIAGE_MESSAGES.alreadyPaid);
  const event: CarriageEvent = {
    type: 'CarriageContractCanceled',
    data: { contractId: state.contractId!, canceledBy: actor.userId, canceledAt: facts.now },
  };
  return {
    writes: [{ streamId: carriageStreamId(state.contractId!), events: [event] }],
    result: { contract: answerOf(state, 'CANCELED'), releaseHoldId: state.holdId },
  };
}

/**
 * Pay (CREATED, transport date reached in Porto-Novo): the answer names the settlement to run
 * on the aggregator's wallet (its hold, paid whole to the carrier's wallet, closed). A paid
 * contract is refused (409): the carrier is paid exactly once.
 */
export function payCarriageContract(
  state: CarriageState,
  actor: CarriageActor,
  facts: { now: string; today: string; carrierWalletId: string },
): CarriageDecision<{
  contract: CarriageAnswer;
  settlement: { holdId: string; settlementId: string; amount: number };
}> {
  requireOwnContract(state, actor);
  if (state.status === 'PAID') throw new ConflictError(CARRIAGE_MESSAGES.alreadyPaid);
  if (state.status === 'CANCELED') throw new ConflictError(CARRIAGE_MESSAGES.canceled);
  if (state.transportDate > facts.today) {
    throw new ValidationError(CARRIAGE_MESSAGES.notYet, {
      fields: { transportDate: CARRIAGE_MESSAGES.notYet },
    });
  }
  const event: CarriageEvent = {
    type: 'CarriageContractPaid',
    data: {
      contractId: state.contractId!,
      carrierWalletId: facts.carrierWalletId,
      amount: state.amount,
      paidBy: actor.userId,
      paidAt: facts.now,
    },
  };
  return {
    writes: [{ streamId: carriageStreamId(state.contractId!), events: [event] }],
    result: {
      contract: answerOf(state, 'PAID'),
      settlement: {
        holdId: state.holdId,
        settlementId: `carriage-pay-${state.contractId!}`,
        amount: state.amount,
      },
    },
  };
}

/** The day in Porto-Novo (UTC+1, no DST): the browsers' 'today'. */
export function portoNovoDay(now: Date): string {
  return new Date(now.getTime() + 60 * 60 * 1000).toISOString().slice(0, 10);
}
