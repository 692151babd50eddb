import {
  BusinessRuleError,
  DEFAULT_MAX_BALANCE,
  DEFAULT_MAX_COMMAND_AMOUNT,
} from '@filiere/platform';
import type { WalletState } from './wallet-stream.js';

/**
 * The money ceilings (config MAX_COMMAND_AMOUNT and MAX_BALANCE, F CFA): the most one command
 * may move, and the most a wallet may hold. They keep every amount and balance far below
 * 2^53, where JavaScript numbers stop being exact.
 */
export interface AmountLimits {
  maxCommandAmount: number;
  maxBalance: number;
}

export const DEFAULT_AMOUNT_LIMITS: AmountLimits = {
  maxCommandAmount: DEFAULT_MAX_COMMAND_AMOUNT,
  maxBalance: DEFAULT_MAX_BALANCE,
};

const grouping = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });

/** `100 000 000 F CFA` (French grouping, as the web displays amounts). */
export const formatFcfa = (amount: number): string => `${grouping.format(amount)} F CFA`;

/** 422 naming the maximum when one command moves more than MAX_COMMAND_AMOUNT. */
export function requireCommandAmountWithin(amount: number, limits: AmountLimits): void {
  if (amount > limits.maxCommandAmount) {
    throw new BusinessRuleError(
      `Le montant dépasse le maximum autorisé par opération (${formatFcfa(limits.maxCommandAmount)})`,
      { reason: 'AMOUNT_ABOVE_MAXIMUM', maxAmount: limits.maxCommandAmount },
    );
  }
}

/** Whose wallet a credit would push past MAX_BALANCE, for the message. */
export type CreditedWallet = 'own' | 'recipient' | 'supply';

const ceilingMessages: Record<CreditedWallet, string> = {
  own: 'Cette opération porterait le solde de votre portefeuille au-delà du plafond',
  recipient:
    'Cette opération porterait le solde du portefeuille du destinataire au-delà du plafond',
  supply: 'Ce crédit porterait le solde du portefeuille au-delà du plafond',
};

/** 422 naming the maximum when crediting `amount` would take the wallet past MAX_BALANCE. */
export function requireBalanceRoom(
  wallet: WalletState,
  amount: number,
  limits: AmountLimits,
  whose: CreditedWallet,
): void {
  if (wallet.balance + amount > limits.maxBalance) {
    throw new BusinessRuleError(`${ceilingMessages[whose]} de ${formatFcfa(limits.maxBalance)}`, {
      reason: 'BALANCE_ABOVE_MAXIMUM',
      maxBalance: limits.maxBalance,
    });
  }
}
