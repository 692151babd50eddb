import { BusinessRuleError, ForbiddenError, ValidationError } from '@filiere/platform';
import { assertAmount, move, walletAccount } from './accounts.js';
import {
  decision,
  isAdmin,
  requireAvailable,
  requireOpenWallet,
  requireOwnWallet,
  type Actor,
  type Decision,
} from './decision.js';
import { walletEvent } from './events.js';
import {
  DEFAULT_AMOUNT_LIMITS,
  requireBalanceRoom,
  requireCommandAmountWithin,
  type AmountLimits,
} from './limits.js';
import { walletStreamId, type WalletState } from './wallet-stream.js';
import { ROLE } from '../../kernel/roles.js';

/** Facts about the recipient, looked up outside the decider. */
export interface Recipient {
  userId: string;
  role: string;
  clusterId: string | null;
  /**
   * The recipient's account: ACTIVE, INACTIVE (deactivated, or self-registered and never
   * activated) or DELETED. Only an active account can use (or withdraw) what it receives.
   */
  status: RecipientStatus;
}

export type RecipientStatus = 'ACTIVE' | 'INACTIVE' | 'DELETED';

/**
 * 422 unless the recipient's account is active: money sent to a deactivated, never-activated
 * or deleted account would be stranded in a wallet nobody can use.
 */
function requireActiveRecipient(recipient: Recipient, who: 'destinataire' | 'bénéficiaire'): void {
  if (recipient.status === 'DELETED') {
    throw new BusinessRuleError(`Le compte du ${who} a été supprimé`, {
      reason: 'RECIPIENT_DELETED',
    });
  }
  if (recipient.status !== 'ACTIVE') {
    throw new BusinessRuleError(`Le compte du ${who} n’est pas actif`, {
      reason: 'RECIPIENT_INACTIVE',
    });
  }
}

export interface Transfer {
  reference: string;
  sourceWalletId: string;
  destinationWalletId: string;
  amount: number;
  reason: string;
}

export interface MovementAnswer {
  reference: string;
  amount: number;
  balance: number;
  availableBalance: number;
}

function requireDistinct(source: string, destination: string): void {
  if (source === destination) {
    throw new ValidationError('Le destinataire doit être un autre portefeuille', {
      fields: { destination: 'Le destinataire doit être un autre portefeuille' },
    });
  }
}

/**
 * Wallet to wallet. The source must be the caller's own wallet; admins and super admins may
 * pay anyone, other roles only users of their own cluster; the recipient's account must be
 * active (422 otherwise). At most MAX_COMMAND_AMOUNT, and never taking the recipient's
 * balance past MAX_BALANCE (422 naming the maximum).
 */
export function transfer(
  states: { source: WalletState; destination: WalletState },
  command: Transfer,
  actor: Actor,
  facts: { recipient: Recipient; limits?: AmountLimits },
): Decision<MovementAnswer> {
  assertAmount(command.amount);
  const limits = facts.limits ?? DEFAULT_AMOUNT_LIMITS;
  requireCommandAmountWithin(command.amount, limits);
  const reason = command.reason?.trim() ?? '';
  if (reason === '') {
    throw new ValidationError('Le motif est obligatoire', {
      fields: { reason: 'Ce champ est obligatoire' },
    });
  }
  requireOwnWallet(actor, command.sourceWalletId);
  requireDistinct(command.sourceWalletId, command.destinationWalletId);
  const inScope =
    isAdmin(actor.role) ||
    (actor.clusterId !== null && facts.recipient.clusterId === actor.clusterId);
  if (!inScope) throw new ForbiddenError('Ce destinataire n’est pas dans votre cluster');
  requireActiveRecipient(facts.recipient, 'destinataire');
  const from = requireOpenWallet(states.source);
  const to = requireOpenWallet(states.destination, 'Portefeuille du destinataire introuvable');
  requireAvailable(states.source, command.amount);
  requireBalanceRoom(states.destination, command.amount, limits, 'recipient');
  const data = {
    reference: command.reference,
    fromWalletId: from,
    toWalletId: to,
    amount: command.amount,
    reason,
  };
  return decision(
    answer(states.source, command.reference, command.amount),
    {
      streamId: walletStreamId(from),
      events: [
        walletEvent('TransferSent', {
          ...data,
          postings: move(walletAccount(from), walletAccount(to), command.amount),
        }),
      ],
    },
    { streamId: walletStreamId(to), events: [walletEvent('TransferReceived', data)] },
  );
}

export interface Finance {
  reference: string;
  sourceWalletId: string;
  destinationWalletId: string;
  amount: number;
}

/**
 * An aggregator funds another aggregator (both ROLE_INDUSTRIAL), never itself, and only an
 * active account (422 otherwise); the same ceilings as a transfer.
 */
export function finance(
  states: { source: WalletState; destination: WalletState },
  command: Finance,
  actor: Actor,
  facts: { recipient: Recipient; limits?: AmountLimits },
): Decision<MovementAnswer> {
  assertAmount(command.amount);
  const limits = facts.limits ?? DEFAULT_AMOUNT_LIMITS;
  requireCommandAmountWithin(command.amount, limits);
  if (actor.role !== ROLE.INDUSTRIAL) {
    throw new ForbiddenError('Seul un agrégateur peut financer un agrégateur');
  }
  if (facts.recipient.role !== ROLE.INDUSTRIAL) {
    throw new ValidationError('Le bénéficiaire doit être un agrégateur', {
      fields: { aggregatorId: 'Le bénéficiaire doit être un agrégateur' },
    });
  }
  requireOwnWallet(actor, command.sourceWalletId);
  requireDistinct(command.sourceWalletId, command.destinationWalletId);
  if (facts.recipient.userId === actor.userId) {
    throw new ValidationError('Vous ne pouvez pas vous financer vous-même');
  }
  requireActiveRecipient(facts.recipient, 'bénéficiaire');
  const from = requireOpenWallet(states.source);
  const to = requireOpenWallet(states.destination, 'Portefeuille du bénéficiaire introuvable');
  requireAvailable(states.source, command.amount);
  requireBalanceRoom(states.destination, command.amount, limits, 'recipient');
  return decision(
    answer(states.source, command.reference, command.amount),
    {
      streamId: walletStreamId(from),
      events: [
        walletEvent('FinancingSent', {
          reference: command.reference,
          fromWalletId: from,
          toWalletId: to,
          toUserId: facts.recipient.userId,
          amount: command.amount,
          postings: move(walletAccount(from), walletAccount(to), command.amount),
        }),
      ],
    },
    {
      streamId: walletStreamId(to),
      events: [
        walletEvent('FinancingReceived', {
          reference: command.reference,
          fromWalletId: from,
          toWalletId: to,
          fromUserId: actor.userId,
          amount: command.amount,
        }),
      ],
    },
  );
}

function answer(source: WalletState, reference: string, amount: number): MovementAnswer {
  return {
    reference,
    amount,
    balance: source.balance - amount,
    availableBalance: source.availableBalance - amount,
  };
}
