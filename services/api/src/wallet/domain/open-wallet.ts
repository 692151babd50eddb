import { ConflictError, ValidationError } from '@filiere/platform';
import { decision, type Decision } from './decision.js';
import { walletEvent } from './events.js';
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
