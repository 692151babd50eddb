import type { Actor } from './decision.js';
import type { InMemoryWalletLedger } from './in-memory-ledger.js';
import { openWallet } from './open-wallet.js';
import { initiateSupply, validateBankSupply, type AcceptedBank } from './supply.js';

/** Shared given-steps for the deciders' specs (test support, no I/O). */
export const bank: AcceptedBank = {
  code: 'BOA',
  name: 'Banque Atlantique Bénin',
  accountNumber: 'BJ0660100100000012345678901',
};

export const superAdmin: Actor = {
  userId: 'u-super',
  role: 'ROLE_SUPER_ADMIN',
  walletId: 'w-super',
  clusterId: null,
};

export function actorOf(
  walletId: string,
  role = 'ROLE_INDUSTRIAL',
  clusterId: string | null = 'c1',
): Actor {
  return { userId: `u-${walletId}`, role, walletId, clusterId };
}

let counter = 0;

/** Opens a wallet and, when `balance` > 0, funds it with a validated bank supply. */
export function givenWallet(ledger: InMemoryWalletLedger, walletId: string, balance = 0): Actor {
  const actor = actorOf(walletId);
  ledger.apply(openWallet(ledger.wallet(walletId), { walletId, ownerUserId: actor.userId }));
  if (balance > 0) {
    const reference = `FUND-${walletId}-${++counter}`;
    ledger.apply(
      initiateSupply(
        { wallet: ledger.wallet(walletId), supply: ledger.supply(reference) },
        { reference, walletId, method: 'BANK', amount: balance },
        actor,
        { bank },
      ),
    );
    ledger.apply(
      validateBankSupply(
        { supply: ledger.supply(reference), wallet: ledger.wallet(walletId) },
        { reference, retypedReference: reference },
        superAdmin,
      ),
    );
  }
  return actor;
}
