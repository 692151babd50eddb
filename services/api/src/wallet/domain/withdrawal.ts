import {
  BusinessRuleError,
  ConflictError,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import {
  assertAmount,
  move,
  payoutAccount,
  payoutSettlementAccount,
  walletAccount,
  type WithdrawalMethod,
} from './accounts.js';
import {
  decision,
  requireAvailable,
  requireOpenWallet,
  requireOwnWallet,
  type Actor,
  type Decision,
} from './decision.js';
import { walletEvent } from './events.js';
import { DEFAULT_AMOUNT_LIMITS, requireCommandAmountWithin, type AmountLimits } from './limits.js';
import { walletStreamId, type WalletState } from './wallet-stream.js';
import {
  withdrawalStreamId,
  type WithdrawalState,
  type WithdrawalStatus,
} from './withdrawal-stream.js';

export interface RequestWithdrawal {
  withdrawalId: string;
  walletId: string;
  method: WithdrawalMethod;
  amount: number;
}

export interface WithdrawalAnswer {
  withdrawalId: string;
  status: WithdrawalStatus;
  amount: number;
}

/**
 * Debits the wallet at once into payout clearing (DEBIT, PENDING); the payout then goes
 * through the provider. `destination` is the owner's mobile-money number or bank account.
 */
export function requestWithdrawal(
  states: { wallet: WalletState; withdrawal: WithdrawalState },
  command: RequestWithdrawal,
  actor: Actor,
  facts: { destination: string | null; limits?: AmountLimits },
): Decision<WithdrawalAnswer & { destination: string }> {
  assertAmount(command.amount);
  requireCommandAmountWithin(command.amount, facts.limits ?? DEFAULT_AMOUNT_LIMITS);
  if (command.method !== 'MOBILE_MONEY' && command.method !== 'BANK') {
    throw new ValidationError('Moyen de retrait invalide', {
      fields: { paiementMethod: 'Moyen de retrait invalide' },
    });
  }
  requireOwnWallet(actor, command.walletId);
  const walletId = requireOpenWallet(states.wallet);
  const destination = facts.destination?.trim() ?? '';
  if (destination === '') {
    throw new BusinessRuleError(
      command.method === 'BANK'
        ? 'Aucun compte bancaire n’est enregistré sur votre profil'
        : 'Aucun numéro mobile money n’est enregistré sur votre profil',
    );
  }
  if (states.withdrawal.exists) throw new ConflictError('Ce retrait existe déjà');
  requireAvailable(states.wallet, command.amount);
  const data = {
    withdrawalId: command.withdrawalId,
    walletId,
    method: command.method,
    amount: command.amount,
    destination,
  };
  return decision(
    { withdrawalId: command.withdrawalId, status: 'PENDING', amount: command.amount, destination },
    {
      streamId: withdrawalStreamId(command.withdrawalId),
      events: [walletEvent('WithdrawalRequested', data)],
    },
    {
      streamId: walletStreamId(walletId),
      events: [
        walletEvent('WithdrawalDebited', {
          ...data,
          postings: move(walletAccount(walletId), payoutAccount(command.method), command.amount),
        }),
      ],
    },
  );
}

function requireWithdrawal(withdrawal: WithdrawalState): string {
  if (!withdrawal.exists || withdrawal.withdrawalId === null) {
    throw new NotFoundError('Retrait introuvable');
  }
  return withdrawal.withdrawalId;
}

const unchanged = (w: WithdrawalState, id: string): Decision<WithdrawalAnswer> =>
  decision({ withdrawalId: id, status: w.status!, amount: w.amount });

/** The provider paid out: payout clearing settles into the provider's or bank's account. */
export function completeWithdrawal(
  withdrawal: WithdrawalState,
  command: { withdrawalId: string; providerId?: string | null },
  facts: { bankCode: string },
): Decision<WithdrawalAnswer> {
  const id = requireWithdrawal(withdrawal);
  if (withdrawal.status === 'SUCCESS') return unchanged(withdrawal, id);
  if (withdrawal.status === 'FAILED') {
    throw new BusinessRuleError('Ce retrait a échoué et a été remboursé');
  }
  const method = withdrawal.method!;
  return decision(
    { withdrawalId: id, status: 'SUCCESS', amount: withdrawal.amount },
    {
      streamId: withdrawalStreamId(id),
      events: [
        walletEvent('WithdrawalCompleted', {
          withdrawalId: id,
          walletId: withdrawal.walletId!,
          amount: withdrawal.amount,
          providerId: command.providerId ?? null,
          postings: move(
            payoutAccount(method),
            payoutSettlementAccount(method, facts.bankCode),
            withdrawal.amount,
          ),
        }),
      ],
    },
  );
}

/** The payout failed: FAILED, and a REFUND posting returns the money to the wallet. */
export function failWithdrawal(
  states: { withdrawal: WithdrawalState; wallet: WalletState },
  command: { withdrawalId: string; reason?: string },
): Decision<WithdrawalAnswer> {
  const id = requireWithdrawal(states.withdrawal);
  const w = states.withdrawal;
  if (w.status === 'FAILED') return unchanged(w, id);
  if (w.status === 'SUCCESS') throw new BusinessRuleError('Ce retrait a déjà été payé');
  const walletId = requireOpenWallet(states.wallet);
  if (walletId !== w.walletId) throw new ConflictError('Portefeuille du retrait différent');
  const reason = command.reason?.trim() || 'Paiement refusé par le fournisseur';
  return decision(
    { withdrawalId: id, status: 'FAILED', amount: w.amount },
    {
      streamId: withdrawalStreamId(id),
      events: [
        walletEvent('WithdrawalFailed', { withdrawalId: id, walletId, amount: w.amount, reason }),
      ],
    },
    {
      streamId: walletStreamId(walletId),
      events: [
        walletEvent('WithdrawalRefunded', {
          withdrawalId: id,
          walletId,
          method: w.method!,
          amount: w.amount,
          reason,
          postings: move(payoutAccount(w.method!), walletAccount(walletId), w.amount),
        }),
      ],
    },
  );
}

export interface RequestSystemPayout {
  withdrawalId: string;
  walletId: string;
  amount: number;
  /** Why the system pays out (e.g. the contract run), kept on the events. */
  reason: string;
}

/**
 * A payout the system decides, not the wallet's owner (a grower's net after a contract run):
 * to the owner's mobile money number, through the same DEBIT (PENDING) and payout job as a
 * user's withdrawal. `withdrawalId` is derived from its cause, so a retry finds the
 * withdrawal's stream and writes nothing (same answer); the same id for another wallet or
 * amount is a 409.
 */
export function requestSystemPayout(
  states: { wallet: WalletState; withdrawal: WithdrawalState },
  command: RequestSystemPayout,
  facts: { destination: string | null; limits?: AmountLimits },
): Decision<WithdrawalAnswer> {
  assertAmount(command.amount);
  requireCommandAmountWithin(command.amount, facts.limits ?? DEFAULT_AMOUNT_LIMITS);
  const reason = command.reason?.trim() ?? '';
  if (!command.withdrawalId || reason === '') {
    throw new ValidationError('Paiement invalide', {
      fields: { reason: 'Ce champ est obligatoire' },
    });
  }
  const existing = states.withdrawal;
  if (existing.exists) {
    if (existing.walletId !== command.walletId || existing.amount !== command.amount) {
      throw new ConflictError('Ce retrait existe déjà');
    }
    return unchanged(existing, command.withdrawalId);
  }
  const walletId = requireOpenWallet(states.wallet);
  if (walletId !== command.walletId) throw new ConflictError('Portefeuille du retrait différent');
  const destination = facts.destination?.trim() ?? '';
  if (destination === '') {
    throw new BusinessRuleError('Aucun numéro mobile money n’est enregistré sur ce compte');
  }
  requireAvailable(states.wallet, command.amount);
  const data = {
    withdrawalId: command.withdrawalId,
    walletId,
    method: 'MOBILE_MONEY' as const,
    amount: command.amount,
    destination,
    reason,
  };
  return decision(
    { withdrawalId: command.withdrawalId, status: 'PENDING', amount: command.amount },
    {
      streamId: withdrawalStreamId(command.withdrawalId),
      events: [walletEvent('WithdrawalRequested', data)],
    },
    {
      streamId: walletStreamId(walletId),
      events: [
        walletEvent('WithdrawalDebited', {
          ...data,
          postings: move(walletAccount(walletId), payoutAccount('MOBILE_MONEY'), command.amount),
        }),
      ],
    },
  );
}
