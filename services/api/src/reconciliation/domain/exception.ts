import {
  BusinessRuleError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import { ROLE } from '../../kernel/roles.js';
import type { ExceptionCandidate } from './close.js';
import {
  reconciliationEvent,
  type EventData,
  type ExceptionKind,
  type ReconciliationEvent,
  type ResolutionAction,
} from './events.js';

export type ExceptionStatus = 'OPEN' | 'LINKED' | 'RESOLVED' | 'CLOSED';

export interface Proposal {
  action: ResolutionAction;
  target: string;
  proposedBy: string;
  note: string;
}

/** The folded state of `recexception-<id>`. */
export interface ExceptionState {
  exists: boolean;
  opened: EventData<'ExceptionOpened'> | null;
  status: ExceptionStatus | null;
  ownerUserId: string | null;
  proposal: Proposal | null;
}

export const exceptionStreamId = (id: string): string => `recexception-${id}`;

export const initialExceptionState = (): ExceptionState => ({
  exists: false,
  opened: null,
  status: null,
  ownerUserId: null,
  proposal: null,
});

export function evolveException(state: ExceptionState, event: ReconciliationEvent): ExceptionState {
  switch (event.type) {
    case 'ExceptionOpened':
      return { ...state, exists: true, opened: event.data, status: 'OPEN' };
    case 'ExceptionAssigned':
      return { ...state, ownerUserId: event.data.ownerUserId };
    case 'ExceptionLinked':
      return { ...state, status: 'LINKED', proposal: null };
    case 'ResolutionProposed':
      return {
        ...state,
        proposal: {
          action: event.data.action,
          target: event.data.target,
          proposedBy: event.data.proposedBy,
          note: event.data.note,
        },
      };
    case 'ResolutionRejected':
      return { ...state, proposal: null };
    case 'ExceptionResolved':
      return { ...state, status: 'RESOLVED', proposal: null };
    case 'ExceptionClosed':
      return { ...state, status: 'CLOSED', proposal: null };
    default:
      return state;
  }
}

export const exceptionStream = {
  category: 'recexception',
  initialState: initialExceptionState,
  evolve: evolveException,
};

/** Who acts on an exception. */
export interface FinanceActor {
  userId: string;
  role: string;
}

/** Finance resolves: the super admin and the admins. The auditor reads, and resolves nothing. */
export const isFinance = (role: string): boolean =>
  role === ROLE.SUPER_ADMIN || role === ROLE.ADMIN;

function requireFinance(actor: FinanceActor): void {
  if (!isFinance(actor.role)) {
    throw new ForbiddenError('Seuls les administrateurs traitent les écarts de rapprochement');
  }
}

function requireOpen(state: ExceptionState): EventData<'ExceptionOpened'> {
  if (!state.exists || state.opened === null) throw new NotFoundError('Écart introuvable');
  if (state.status !== 'OPEN') {
    throw new BusinessRuleError('Cet écart est déjà traité', { reason: 'EXCEPTION_SETTLED' });
  }
  return state.opened;
}

const events = (...list: ReconciliationEvent[]) => list;

/** Opens the exception once: an exception already opened (in any state) is left as it is. */
export function openException(
  state: ExceptionState,
  candidate: ExceptionCandidate,
): ReconciliationEvent[] {
  if (state.exists) return [];
  return events(reconciliationEvent('ExceptionOpened', { ...candidate }));
}

/** Gives the exception an owner among finance (any finance user, for any open exception). */
export function assignException(
  state: ExceptionState,
  command: { ownerUserId: string; ownerRole: string },
  actor: FinanceActor,
): ReconciliationEvent[] {
  requireFinance(actor);
  const opened = requireOpen(state);
  if (!isFinance(command.ownerRole)) {
    throw new ValidationError('Le responsable doit être un administrateur', {
      fields: { ownerUserId: 'Le responsable doit être un administrateur' },
    });
  }
  if (state.ownerUserId === command.ownerUserId) return [];
  return events(
    reconciliationEvent('ExceptionAssigned', {
      exceptionId: opened.exceptionId,
      ownerUserId: command.ownerUserId,
      assignedBy: actor.userId,
    }),
  );
}

/**
 * Links the exception's item by hand to its counterpart: a line with no movement to a
 * movement (`movementKey`), a movement with no line to a line (`lineKey`). The counterpart's
 * existence and freedom are facts the caller checked (`counterpartFree`).
 */
export function linkException(
  state: ExceptionState,
  command: { counterpartKey: string; note: string },
  actor: FinanceActor,
  facts: { counterpartFree: boolean },
): ReconciliationEvent[] {
  requireFinance(actor);
  const opened = requireOpen(state);
  if (opened.kind === 'AMOUNT_MISMATCH') {
    throw new BusinessRuleError('Un écart de montant se ferme avec un motif', {
      reason: 'LINK_NOT_APPLICABLE',
    });
  }
  if (!facts.counterpartFree) {
    throw new BusinessRuleError('Ce mouvement est déjà rapproché', { reason: 'ALREADY_MATCHED' });
  }
  const lineKey = opened.lineKey ?? command.counterpartKey;
  const movementKey = opened.movementKey ?? command.counterpartKey;
  return events(
    reconciliationEvent('ExceptionLinked', {
      exceptionId: opened.exceptionId,
      lineKey,
      movementKey,
      linkedBy: actor.userId,
      note: command.note.trim(),
    }),
  );
}

/** The ledger command each kind of exception may call for. */
const ACTION_FOR: Partial<Record<ExceptionKind, Partial<Record<'IN' | 'OUT', ResolutionAction>>>> =
  {
    // Money taken, not credited: credit the supply that was paid.
    MISSING_IN_LEDGER: { IN: 'CREDIT_SUPPLY' },
    // Paid out by the ledger, never seen at the provider: the payout failed, refund it.
    MISSING_AT_PROVIDER: { OUT: 'FAIL_PAYOUT' },
  };

/** First eye: a finance user proposes the ledger command that resolves the exception. */
export function proposeResolution(
  state: ExceptionState,
  command: { action: ResolutionAction; target: string; note: string },
  actor: FinanceActor,
): ReconciliationEvent[] {
  requireFinance(actor);
  const opened = requireOpen(state);
  if (ACTION_FOR[opened.kind]?.[opened.direction] !== command.action) {
    throw new BusinessRuleError('Cette opération ne résout pas ce type d’écart', {
      reason: 'ACTION_NOT_APPLICABLE',
    });
  }
  if (state.proposal !== null) {
    throw new BusinessRuleError('Une résolution attend déjà son approbation', {
      reason: 'PROPOSAL_PENDING',
    });
  }
  const target = command.target.trim();
  if (target === '') {
    throw new ValidationError('Ce champ est obligatoire', {
      fields: { target: 'Ce champ est obligatoire' },
    });
  }
  return events(
    reconciliationEvent('ResolutionProposed', {
      exceptionId: opened.exceptionId,
      action: command.action,
      target,
      proposedBy: actor.userId,
      note: command.note.trim(),
    }),
  );
}

function requirePendingProposal(state: ExceptionState, actor: FinanceActor): Proposal {
  requireFinance(actor);
  requireOpen(state);
  if (state.proposal === null) {
    throw new BusinessRuleError('Aucune résolution n’attend d’approbation', {
      reason: 'NO_PROPOSAL',
    });
  }
  if (state.proposal.proposedBy === actor.userId) {
    throw new ForbiddenError('Une autre personne doit approuver votre proposition');
  }
  return state.proposal;
}

/**
 * Second eye: another finance user approves. The caller appends, in the same command, the
 * wallet's own decision for the proposal (its deciders, its streams): the exception is
 * resolved exactly when the ledger command is.
 */
export function approveResolution(
  state: ExceptionState,
  actor: FinanceActor,
): { proposal: Proposal; events: ReconciliationEvent[] } {
  const proposal = requirePendingProposal(state, actor);
  return {
    proposal,
    events: events(
      reconciliationEvent('ExceptionResolved', {
        exceptionId: state.opened!.exceptionId,
        action: proposal.action,
        target: proposal.target,
        proposedBy: proposal.proposedBy,
        approvedBy: actor.userId,
      }),
    ),
  };
}

/** Second eye says no: the exception stays open, with no proposal. */
export function rejectResolution(
  state: ExceptionState,
  command: { note: string },
  actor: FinanceActor,
): ReconciliationEvent[] {
  requirePendingProposal(state, actor);
  return events(
    reconciliationEvent('ResolutionRejected', {
      exceptionId: state.opened!.exceptionId,
      rejectedBy: actor.userId,
      note: command.note.trim(),
    }),
  );
}

/** Closes the exception with a reason (required), leaving the ledger as it is. */
export function closeException(
  state: ExceptionState,
  command: { reason: string },
  actor: FinanceActor,
): ReconciliationEvent[] {
  requireFinance(actor);
  const opened = requireOpen(state);
  const reason = command.reason.trim();
  if (reason === '') {
    throw new ValidationError('Le motif est obligatoire', {
      fields: { reason: 'Ce champ est obligatoire' },
    });
  }
  return events(
    reconciliationEvent('ExceptionClosed', {
      exceptionId: opened.exceptionId,
      closedBy: actor.userId,
      reason,
    }),
  );
}
