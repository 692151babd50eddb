import { ConflictError, ValidationError } from '@filiere/platform';
import { decision, type Decision } from './decision.js';
import { walletEvent, type WalletEvent } from './events.js';
import { walletStreamId, type WalletState } from './wallet-stream.js';

export interface OpenWallet {
  walletId: string;
  ownerUserId: string;
}

/** Opens a user's wallet (once). */
export function openWallet(
  wallet: WalletState,
  command: OpenWallet,
): Decision<{ walletId: string }> {
  if (!command.walletId || !command.ownerUserId) {
    throw new ValidationError('Portefeuille invalide', {
      fields: { walletId: 'Ce champ est obligatoire' },
    });
  }
  if (wallet.opened) throw new ConflictError('Ce portefeuille existe déjà');
  return decision(
    { walletId: command.walletId },
    {
      streamId: walletStreamId(command.walletId),
      events: [walletEvent('WalletOpened', command)],
    },
  );
}

/**
 * The `open` hook of a command that may be a wallet's first use: the events that open it for
 * its owner, or none when it is open already.
 */
export const opensWallet =
  (command: OpenWallet) =>
  (wallet: WalletState): WalletEvent[] =>
    wallet.opened ? [] : openWallet(wallet, command).writes.flatMap((write) => write.events);
