import {
  BusinessRuleError,
  ConflictError,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import { assertAmount, move, walletAccount, type Posting } from './accounts.js';
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
  if (wallet.holds.has(command.holdId)) throw new ConflictError('Cette réservation existe déjà');
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
  const hold = wallet.holds.get(holdId);
  if (!hold) throw new NotFoundError('Réservation introuvable');
  return hold;
}

/**
 * Frees what a hold still holds (its whole amount unless settled in part); releasing twice
 * changes nothing; a captured hold cannot be released.
 */
export function releaseHold(
  wallet: WalletState,
  command: { holdId: string },
): Decision<HoldAnswer> {
  const walletId = requireOpenWallet(wallet);
  const hold = requireHold(wallet, command.holdId);
  if (hold.status === 'RELEASED') {
    return decision({ holdId: command.holdId, status: hold.status, amount: hold.amount });
  }
  if (hold.status === 'CAPTURED') throw new BusinessRuleError('Cette réservation a déjà été payée');
  return decision(
    { holdId: command.holdId, status: 'RELEASED', amount: hold.amount },
    {
      streamId: walletStreamId(walletId),
      events: [
        walletEvent('HoldReleased', { holdId: command.holdId, walletId, amount: hold.remaining }),
      ],
    },
  );
}

/**
 * Pays an active hold out to one or more wallets (e.g. the grower, and first the input
 * provider owed an advance). The payments must add up to what the hold still holds exactly
 * (its amount unless settled in part).
 */
export function captureHold(
  states: { wallet: WalletState; destinations: Record<string, WalletState> },
  command: { holdId: string; payments: { walletId: string; amount: number }[] },
  limits: AmountLimits = DEFAULT_AMOUNT_LIMITS,
): Decision<HoldAnswer> {
  const walletId = requireOpenWallet(states.wallet);
  const hold = requireHold(states.wallet, command.holdId);
  if (hold.status === 'CAPTURED') {
    return decision({ holdId: command.holdId, status: hold.status, amount: hold.amount });
  }
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
  if (total !== hold.remaining) {
    throw new ValidationError('La somme des paiements doit égaler la réservation', {
      fields: { payments: 'La somme des paiements doit égaler la réservation' },
    });
  }
  const postings: Posting[] = [
    { account: walletAccount(walletId), amount: -hold.remaining },
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
          amount: hold.remaining,
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

export interface SettleHold {
  holdId: string;
  /** Names this settlement: the same id again answers the first figures and writes nothing. */
  settlementId: string;
  /** Who is paid; may be empty only when `closeHold`. */
  payments: { walletId: string; amount: number }[];
  /** true: release what remains after this payment; false: keep the remainder ACTIVE. */
  closeHold: boolean;
  /** true: the payments may exceed the remaining amount, the excess taken from the available balance. */
  allowExcess: boolean;
}

export interface SettleHoldAnswer {
  holdId: string;
  status: 'ACTIVE' | 'CAPTURED';
  captured: number;
  excess: number;
  released: number;
  remaining: number;
}

/**
 * Pays part (or all) of an ACTIVE hold to other open wallets, in one event on the payer's
 * stream (with the postings) and one `HoldSettlementReceived` per payee. What the payments
 * take beyond the hold's remaining amount is the excess: refused (422 'La réservation ne
 * couvre pas ce paiement') unless `allowExcess`, then taken from the available balance (422
 * with the missing amount when short). `closeHold` releases what remains; otherwise the
 * remainder stays ACTIVE for later settlements (the hold is CAPTURED once nothing remains).
 * Idempotent per settlementId: a repeat answers the recorded figures and writes nothing.
 */
export function settleHold(
  states: { wallet: WalletState; destinations: Record<string, WalletState> },
  command: SettleHold,
  limits: AmountLimits = DEFAULT_AMOUNT_LIMITS,
): Decision<SettleHoldAnswer> {
  const walletId = requireOpenWallet(states.wallet);
  const hold = requireHold(states.wallet, command.holdId);
  if (!command.settlementId) {
    throw new ValidationError('Règlement invalide', {
      fields: { settlementId: 'Ce champ est obligatoire' },
    });
  }
  const done = hold.settlements[command.settlementId];
  if (done) return decision({ holdId: command.holdId, ...done });
  if (hold.status === 'CAPTURED') throw new BusinessRuleError('Cette réservation a déjà été payée');
  if (hold.status === 'RELEASED') throw new BusinessRuleError('Cette réservation a été libérée');
  if (command.payments.length === 0 && !command.closeHold) {
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
  const captured = Math.min(total, hold.remaining);
  const excess = total - captured;
  if (excess > 0) {
    if (!command.allowExcess) {
      throw new BusinessRuleError('La réservation ne couvre pas ce paiement', {
        missingAmount: excess,
      });
    }
    requireAvailable(states.wallet, excess);
  }
  const left = hold.remaining - captured;
  const released = command.closeHold ? left : 0;
  const remaining = left - released;
  const figures: SettleHoldAnswer = {
    holdId: command.holdId,
    status: command.closeHold || remaining === 0 ? 'CAPTURED' : 'ACTIVE',
    captured,
    excess,
    released,
    remaining,
  };
  return decision(
    figures,
    {
      streamId: walletStreamId(walletId),
      // The hold's figures first, then the payments: every position of the log is a state
      // with balance and available ≥ 0. Paid first, each payment took the balance down while
      // the hold still counted whole, and the available balance went below 0 until the
      // HoldSettled (the bank test's run at 00:08 on 2026-11-30: -7,206 F at one position).
      events: [
        walletEvent('HoldSettled', {
          holdId: command.holdId,
          settlementId: command.settlementId,
          walletId,
          payments: command.payments,
          captured,
          excess,
          released,
          remaining,
          status: figures.status,
        }),
        ...command.payments.map((p) =>
          walletEvent('HoldSettlementPaid', {
            holdId: command.holdId,
            settlementId: command.settlementId,
            fromWalletId: walletId,
            toWalletId: p.walletId,
            amount: p.amount,
            postings: move(walletAccount(walletId), walletAccount(p.walletId), p.amount),
          }),
        ),
      ],
    },
    ...command.payments.map((p) => ({
      streamId: walletStreamId(p.walletId),
      events: [
        walletEvent('HoldSettlementReceived', {
          holdId: command.holdId,
          settlementId: command.settlementId,
          fromWalletId: walletId,
          walletId: p.walletId,
          amount: p.amount,
        }),
      ],
    })),
  );
}
