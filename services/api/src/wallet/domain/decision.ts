import { BusinessRuleError, ForbiddenError, NotFoundError } from '@filiere/platform';
import type { WalletEvent } from './events.js';
import type { WalletState } from './wallet-stream.js';
import { ROLE } from '../../kernel/roles.js';

/** Who issues a command. `role` is a role code (ROLE_…) or SYSTEM for background jobs. */
export interface Actor {
  userId: string;
  role: string;
  walletId: string | null;
  clusterId: string | null;
}

export const SYSTEM_ROLE = 'SYSTEM';
export const systemActor: Actor = {
  userId: 'system',
  role: SYSTEM_ROLE,
  walletId: null,
  clusterId: null,
};

export interface StreamWrite {
  streamId: string;
  events: WalletEvent[];
}

/** What a decider returns: events per stream (possibly none) and the command's answer. */
export interface Decision<R> {
  writes: StreamWrite[];
  result: R;
}

export function decision<R>(result: R, ...writes: StreamWrite[]): Decision<R> {
  return { writes: writes.filter((w) => w.events.length > 0), result };
}

export function requireOpenWallet(
  state: WalletState,
  message = 'Portefeuille introuvable',
): string {
  if (!state.opened || state.walletId === null) throw new NotFoundError(message);
  return state.walletId;
}

/** 422 with the missing amount when `amount` exceeds the available balance. */
export function requireAvailable(state: WalletState, amount: number): void {
  if (amount > state.availableBalance) {
    throw new BusinessRuleError('Solde disponible insuffisant', {
      missingAmount: amount - state.availableBalance,
    });
  }
}

export function requireOwnWallet(actor: Actor, walletId: string): void {
  if (actor.walletId !== walletId) {
    throw new ForbiddenError('Ce portefeuille ne vous appartient pas');
  }
}

export const isAdmin = (role: string): boolean => role === ROLE.ADMIN || role === ROLE.SUPER_ADMIN;
