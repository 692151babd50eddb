import {
  BusinessRuleError,
  ConflictError,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import { assertAmount, walletAccount, type Posting } from './accounts.js';
import { decision, requireAvailable, requireOpenWallet, type Decision } from './decision.js';
import { walletEvent } from './events.js';
import {
  DEFAULT_AMOUNT_LIMITS,
  requireBalanceRoom,
  requireCommandAmountWithin,
  type AmountLimits,
} from './limits.js';
import { walletStreamId, type WalletState } from './wallet-stream.js';

/**
 * Holds reserve part of a wallet for a contract: `availableBalance = balance − active holds`.
 * They are issued by other contexts (contracts) on the system's behalf, so they carry no
 * actor; the caller checks who may ask.
 */
export interface HoldAnswer {
  holdId: string;
  status: 'ACTIVE' | 'RELEASED' | 'CAPTURED';
  amount: number;
}

export function placeHold(
  wallet: WalletState,
  command: { holdId: string; amount: number; purpose: string },
  limits: AmountLimits = DEFAULT_AMOUNT_LIMITS,
): Decision<HoldAnswer> {
  assertAmount(command.amount);
  requireCommandAmountWithin(command.amount, limits);
  if (!command.holdId || !command.purpose?.trim()) {
    throw new ValidationError('Réservation invalide', {
      fields: { purpose: 'Ce champ est obligatoire' },
    });
  }
  const walletId = requireOpenWallet(wallet);
  if (wallet.holds[command.holdId]) throw new ConflictError('Cette réservation existe déjà');
  requireAvailable(wallet, command.amount);
  return decision(
    { holdId: command.holdId, status: 'ACTIVE', amount: command.amount },
    {
      streamId: walletStreamId(walletId),
      events: [
        walletEvent('HoldPlaced', {
          holdId: command.holdId,
          walletId,
          amount: command.amount,
          purpose: command.purpose.trim(),
        }),
      ],
    },
  );
}

function requireHold(wallet: WalletState, holdId: string) {
  const hold = wallet.holds[holdId];
  if (!hold) throw new NotFoundError('Réservation introuvable');
  return hold;
}

/** Frees a hold; releasing twice changes nothing; a captured hold cannot be released. */
export function releaseHold(
  wallet: WalletState,
  command: { holdId: string },
): Decision<HoldAnswer> {
  const walletId = requireOpenWallet(wallet);
  const hold = requireHold(wallet, command.holdId);
  if (hold.status === 'RELEASED') return decision({ holdId: command.holdId, ...hold });
  if (hold.status === 'CAPTURED') throw new BusinessRuleError('Cette réservation a déjà été payée');
  return decision(
    { holdId: command.holdId, status: 'RELEASED', amount: hold.amount },
    {
      streamId: walletStreamId(walletId),
      events: [
        walletEvent('HoldReleased', { holdId: command.holdId, walletId, amount: hold.amount }),
      ],
    },
  );
}

/**
 * Pays an active hold out to one or more wallets (e.g. the grower, and first the input
 * provider owed an advance). The payments must add up to the hold's amount exactly.
 */
export function captureHold(
  states: { wallet: WalletState; destinations: Record<string, WalletState> },
  command: { holdId: string; payments: { walletId: string; amount: number }[] },
  limits: AmountLimits = DEFAULT_AMOUNT_LIMITS,
): Decision<HoldAnswer> {
  const walletId = requireOpenWallet(states.wallet);
  const hold = requireHold(states.wallet, command.holdId);
  if (hold.status === 'CAPTURED') return decision({ holdId: command.holdId, ...hold });
  if (hold.status === 'RELEASED') throw new BusinessRuleError('Cette réservation a été libérée');
  if (command.payments.length === 0) {
    throw new ValidationError('Aucun bénéficiaire', {
      fields: { payments: 'Ce champ est obligatoire' },
    });
  }
  const seen = new Set<string>();
  let total = 0;
  for (const payment of command.payments) {
    assertAmount(payment.amount);
    if (payment.walletId === walletId || seen.has(payment.walletId)) {
      throw new ValidationError('Bénéficiaire invalide', {
        fields: { payments: 'Bénéficiaire invalide' },
      });
    }
    seen.add(payment.walletId);
    const destination = states.destinations[payment.walletId];
    if (!destination) throw new NotFoundError('Portefeuille du bénéficiaire introuvable');
    requireOpenWallet(destination, 'Portefeuille du bénéficiaire introuvable');
    requireBalanceRoom(destination, payment.amount, limits, 'recipient');
    total += payment.amount;
  }
  if (total !== hold.amount) {
    throw new ValidationError('La somme des paiements doit égaler la réservation', {
      fields: { payments: 'La somme des paiements doit égaler la réservation' },
    });
  }
  const postings: Posting[] = [
    { account: walletAccount(walletId), amount: -hold.amount },
    ...command.payments.map((p) => ({ account: walletAccount(p.walletId), amount: p.amount })),
  ];
  return decision(
    { holdId: command.holdId, status: 'CAPTURED', amount: hold.amount },
    {
      streamId: walletStreamId(walletId),
      events: [
        walletEvent('HoldCaptured', {
          holdId: command.holdId,
          walletId,
          amount: hold.amount,
          payments: command.payments,
          postings,
        }),
      ],
    },
    ...command.payments.map((p) => ({
      streamId: walletStreamId(p.walletId),
      events: [
        walletEvent('HoldPaymentReceived', {
          holdId: command.holdId,
          fromWalletId: walletId,
          walletId: p.walletId,
          amount: p.amount,
        }),
      ],
    })),
  );
}
