import { describe, expect, it } from 'vitest';
import { ValidationError } from '@filiere/platform';
import { assertAmount, assertBalanced, move } from './accounts.js';
import { walletEventSchemas, walletEventTypes } from './events.js';
import { InMemoryWalletLedger } from './in-memory-ledger.js';
import { givenWallet } from './test-fixtures.js';
import { transfer } from './transfer.js';

describe('accounts', () => {
  it('assertBalanced accepts balanced integer postings and refuses the rest', () => {
    expect(() => assertBalanced(move('wallet:a', 'wallet:b', 10))).not.toThrow();
    expect(() =>
      assertBalanced([
        { account: 'wallet:a', amount: -10 },
        { account: 'wallet:b', amount: 9 },
      ]),
    ).toThrow(ValidationError);
    expect(() =>
      assertBalanced([
        { account: 'wallet:a', amount: -1.5 },
        { account: 'wallet:b', amount: 1.5 },
      ]),
    ).toThrow(ValidationError);
    expect(() =>
      assertBalanced([
        { account: 'wallet:a', amount: 0 },
        { account: 'wallet:b', amount: 0 },
      ]),
    ).toThrow(ValidationError);
    expect(() => assertBalanced([{ account: 'wallet:a', amount: 0 }])).toThrow(ValidationError);
    const huge = Number.MAX_SAFE_INTEGER;
    expect(() =>
      assertBalanced([
        { account: 'a', amount: huge },
        { account: 'b', amount: huge },
        { account: 'c', amount: -huge },
      ]),
    ).toThrow(ValidationError);
  });

  it('assertAmount wants a positive safe integer, with a French field message', () => {
    expect(() => assertAmount(1)).not.toThrow();
    expect(() => assertAmount(Number.MAX_SAFE_INTEGER)).not.toThrow();
    for (const bad of [0, -1, 0.5, Number.MAX_SAFE_INTEGER + 1, Infinity, '10', null]) {
      expect(() => assertAmount(bad)).toThrow(ValidationError);
    }
    try {
      assertAmount(0, 'amount');
    } catch (error) {
      expect((error as ValidationError).data).toEqual({
        fields: { amount: 'Le montant doit être un entier strictement positif' },
      });
    }
  });
});

describe('event catalogue', () => {
  it('has a version-1 schema per event type, and every event a decider emits parses', () => {
    expect(walletEventTypes.length).toBeGreaterThanOrEqual(19);
    for (const type of walletEventTypes) expect(walletEventSchemas[type].version).toBe(1);
    const ledger = new InMemoryWalletLedger();
    const a = givenWallet(ledger, 'a', 100);
    givenWallet(ledger, 'b');
    ledger.apply(
      transfer(
        { source: ledger.wallet('a'), destination: ledger.wallet('b') },
        {
          reference: 'T',
          sourceWalletId: 'a',
          destinationWalletId: 'b',
          amount: 40,
          reason: 'Motif',
        },
        a,
        { recipient: { userId: 'u-b', role: 'ROLE_GROWER', clusterId: 'c1', status: 'ACTIVE' } },
      ),
    );
    const events = [...ledger.streams.values()].flat();
    expect(new Set(events.map((e) => e.type))).toEqual(
      new Set([
        'WalletOpened',
        'SupplyInitiated',
        'SupplySucceeded',
        'SupplyCredited',
        'TransferSent',
        'TransferReceived',
      ]),
    );
    for (const event of events) {
      expect(() => walletEventSchemas[event.type].schema.parse(event.data)).not.toThrow();
    }
  });

  it('refuses non-integer or negative amounts in event data', () => {
    const schema = walletEventSchemas.TransferReceived.schema;
    const data = { reference: 'T', fromWalletId: 'a', toWalletId: 'b', amount: 10, reason: 'x' };
    expect(schema.safeParse(data).success).toBe(true);
    expect(schema.safeParse({ ...data, amount: 1.5 }).success).toBe(false);
    expect(schema.safeParse({ ...data, amount: -1 }).success).toBe(false);
  });
});
