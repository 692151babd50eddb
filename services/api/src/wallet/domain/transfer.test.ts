import { describe, expect, it } from 'vitest';
import {
  BusinessRuleError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import { balancesByAccount } from './accounts.js';
import type { Actor } from './decision.js';
import { InMemoryWalletLedger } from './in-memory-ledger.js';
import { placeHold } from './holds.js';
import { finance, transfer, type Recipient } from './transfer.js';
import { givenWallet } from './test-fixtures.js';

function given() {
  const ledger = new InMemoryWalletLedger();
  const alice = givenWallet(ledger, 'a', 10_000);
  const bob = givenWallet(ledger, 'b');
  return { ledger, alice, bob };
}

const recipientB: Recipient = {
  userId: 'u-b',
  role: 'ROLE_GROWER',
  clusterId: 'c1',
  status: 'ACTIVE',
};

function send(
  ledger: InMemoryWalletLedger,
  actor: Actor,
  amount: number,
  overrides: Partial<Parameters<typeof transfer>[1]> = {},
  recipient = recipientB,
) {
  const cmd = {
    reference: 'T1',
    sourceWalletId: 'a',
    destinationWalletId: 'b',
    amount,
    reason: 'Paiement',
    ...overrides,
  };
  return transfer(
    {
      source: ledger.wallet(cmd.sourceWalletId),
      destination: ledger.wallet(cmd.destinationWalletId),
    },
    cmd,
    actor,
    { recipient },
  );
}

describe('transfer', () => {
  it('moves the amount: TransferSent (with postings) on the source, TransferReceived (without) on the destination', () => {
    const { ledger, alice } = given();
    const decision = send(ledger, alice, 4000);
    expect(decision.writes.map((w) => [w.streamId, w.events.map((e) => e.type)])).toEqual([
      ['wallet-a', ['TransferSent']],
      ['wallet-b', ['TransferReceived']],
    ]);
    expect(decision.writes[1]!.events[0]!.data).not.toHaveProperty('postings');
    expect(ledger.apply(decision)).toEqual({
      reference: 'T1',
      amount: 4000,
      balance: 6000,
      availableBalance: 6000,
    });
    expect(ledger.wallet('a').balance).toBe(6000);
    expect(ledger.wallet('b').balance).toBe(4000);
    const balances = balancesByAccount(ledger.postings());
    expect(balances.get('wallet:a')).toBe(6000);
    expect(balances.get('wallet:b')).toBe(4000);
  });

  it('refuses to go below the available balance: 422 with the missing amount', () => {
    const { ledger, alice } = given();
    ledger.apply(placeHold(ledger.wallet('a'), { holdId: 'h', amount: 3000, purpose: 'Contrat' }));
    try {
      send(ledger, alice, 8000);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(BusinessRuleError);
      expect((error as BusinessRuleError).message).toBe('Solde disponible insuffisant');
      expect((error as BusinessRuleError).data).toEqual({ missingAmount: 1000 });
    }
    expect(ledger.apply(send(ledger, alice, 7000)).availableBalance).toBe(0);
  });

  it('the source must be the caller’s own wallet', () => {
    const { ledger, bob } = given();
    expect(() => send(ledger, bob, 10)).toThrow(ForbiddenError);
  });

  it('non-admins may only pay users of their own cluster; admins and super admins anyone', () => {
    const { ledger, alice } = given();
    const elsewhere = { ...recipientB, clusterId: 'c2' };
    expect(() => send(ledger, alice, 10, {}, elsewhere)).toThrow(ForbiddenError);
    expect(() =>
      send(ledger, { ...alice, clusterId: null }, 10, {}, { ...recipientB, clusterId: null }),
    ).toThrow(ForbiddenError);
    for (const role of ['ROLE_ADMIN', 'ROLE_SUPER_ADMIN']) {
      expect(
        send(ledger, { ...alice, role, clusterId: null }, 10, {}, elsewhere).writes,
      ).toHaveLength(2);
    }
  });

  it('requires a reason, a positive integer amount and another open wallet', () => {
    const { ledger, alice } = given();
    expect(() => send(ledger, alice, 10, { reason: '   ' })).toThrow(ValidationError);
    for (const amount of [0, -1, 2.5, Number.MAX_SAFE_INTEGER + 2]) {
      expect(() => send(ledger, alice, amount)).toThrow(ValidationError);
    }
    expect(() => send(ledger, alice, 10, { destinationWalletId: 'a' })).toThrow(ValidationError);
    expect(() => send(ledger, alice, 10, { destinationWalletId: 'ghost' })).toThrow(NotFoundError);
  });
  it('refuses (422, nothing written) a recipient whose account is inactive or deleted', () => {
    const { ledger, alice } = given();
    for (const [status, message] of [
      ['INACTIVE', 'Le compte du destinataire n’est pas actif'],
      ['DELETED', 'Le compte du destinataire a été supprimé'],
    ] as const) {
      const refused = () => send(ledger, alice, 10, {}, { ...recipientB, status });
      expect(refused).toThrow(BusinessRuleError);
      expect(refused).toThrow(message);
    }
    expect(ledger.wallet('a').balance).toBe(10_000);
    expect(ledger.wallet('b').balance).toBe(0);
  });
});

describe('finance', () => {
  const aggregator: Recipient = {
    userId: 'u-b',
    role: 'ROLE_INDUSTRIAL',
    clusterId: 'c9',
    status: 'ACTIVE',
  };
  const fund = (
    ledger: InMemoryWalletLedger,
    actor: Actor,
    amount: number,
    recipient = aggregator,
    destinationWalletId = 'b',
  ) =>
    finance(
      { source: ledger.wallet('a'), destination: ledger.wallet(destinationWalletId) },
      { reference: 'F1', sourceWalletId: 'a', destinationWalletId, amount },
      actor,
      { recipient },
    );

  it('an aggregator funds another aggregator (any cluster)', () => {
    const { ledger, alice } = given();
    const decision = fund(ledger, alice, 2500);
    expect(decision.writes.flatMap((w) => w.events.map((e) => e.type))).toEqual([
      'FinancingSent',
      'FinancingReceived',
    ]);
    ledger.apply(decision);
    expect(ledger.wallet('a').balance).toBe(7500);
    expect(ledger.wallet('b').balance).toBe(2500);
  });

  it('only from an aggregator, only to an aggregator, never to itself, never beyond the available balance', () => {
    const { ledger, alice } = given();
    expect(() => fund(ledger, { ...alice, role: 'ROLE_SFD' }, 10)).toThrow(ForbiddenError);
    expect(() => fund(ledger, alice, 10, { ...aggregator, role: 'ROLE_GROWER' })).toThrow(
      ValidationError,
    );
    expect(() => fund(ledger, alice, 10, { ...aggregator, userId: alice.userId }, 'a')).toThrow(
      ValidationError,
    );
    expect(() => fund(ledger, alice, 10_001)).toThrow(BusinessRuleError);
  });

  it('only to an active account: 422 for a deactivated or deleted aggregator', () => {
    const { ledger, alice } = given();
    expect(() => fund(ledger, alice, 10, { ...aggregator, status: 'INACTIVE' })).toThrow(
      'Le compte du bénéficiaire n’est pas actif',
    );
    expect(() => fund(ledger, alice, 10, { ...aggregator, status: 'DELETED' })).toThrow(
      'Le compte du bénéficiaire a été supprimé',
    );
    expect(ledger.wallet('b').balance).toBe(0);
  });
});
