import { openWallet, type WalletEvent, type WalletState } from '../../wallet/index.js';

/**
 * The `open` hook of a wallet a command credits: its WalletOpened (the wallet's own opening
 * decider) when it was never opened, nothing when it is. The runner appends it only when the
 * command writes something, so a refusal never opens a wallet.
 */
export const opensWallet =
  (walletId: string, ownerUserId: string) =>
  (wallet: WalletState): WalletEvent[] =>
    wallet.opened
      ? []
      : openWallet(wallet, { walletId, ownerUserId }).writes.flatMap((w) => w.events);
