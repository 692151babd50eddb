import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '@filiere/platform';
import { InMemoryWalletLedger } from './in-memory-ledger.js';
import { openWallet } from './open-wallet.js';

describe('openWallet', () => {
  it('opens an empty wallet once', () => {
    const ledger = new InMemoryWalletLedger();
    ledger.apply(openWallet(ledger.wallet('w'), { walletId: 'w', ownerUserId: 'u' }));
    expect(ledger.wallet('w')).toMatchObject({
      opened: true,
      ownerUserId: 'u',
      balance: 0,
      availableBalance: 0,
    });
    expect(() => openWallet(ledger.wallet('w'), { walletId: 'w', ownerUserId: 'u' })).toThrow(
      ConflictError,
    );
    expect(() => openWallet(ledger.wallet('v'), { walletId: '', ownerUserId: 'u' })).toThrow(
      ValidationError,
    );
  });
});
