import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConcurrencyError, isAppError } from '@filiere/platform';
import type { Actor, Decision } from './decision.js';
import { InMemoryWalletLedger } from './in-memory-ledger.js';
import { placeHold } from './holds.js';
import { givenWallet } from './test-fixtures.js';
import { transfer } from './transfer.js';
import { requestWithdrawal } from './withdrawal.js';
import { walletStreamId } from './wallet-stream.js';

/**
 * Many commands debit one wallet "at the same time": each is decided against the same
 * snapshot, then appended in a random order with the versions it was decided against.
 * The stale ones are refused (ConcurrencyError) and re-decided on fresh state, as the
 * command pipeline does. The wallet never goes below zero.
 */
describe('concurrent debits of one wallet', () => {
  it('never take the available balance below zero, whatever the interleaving', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20_000 }),
        fc.array(
          fc.record({
            kind: fc.constantFrom('transfer', 'withdraw', 'hold'),
            amount: fc.integer({ min: 1, max: 8_000 }),
          }),
          {
            minLength: 2,
            maxLength: 12,
          },
        ),
        fc.infiniteStream(fc.nat()),
        (funded, commands, order) => {
          const ledger = new InMemoryWalletLedger();
          const owner: Actor = givenWallet(ledger, 'src', funded);
          givenWallet(ledger, 'dst');
          const decide = (i: number): Decision<unknown> => {
            const c = commands[i]!;
            const id = `c${i}`;
            if (c.kind === 'transfer') {
              return transfer(
                { source: ledger.wallet('src'), destination: ledger.wallet('dst') },
                {
                  reference: id,
                  sourceWalletId: 'src',
                  destinationWalletId: 'dst',
                  amount: c.amount,
                  reason: 'Motif',
                },
                owner,
                {
                  recipient: {
                    userId: 'u-dst',
                    role: 'ROLE_GROWER',
                    clusterId: owner.clusterId,
                    status: 'ACTIVE',
                  },
                },
              );
            }
            if (c.kind === 'withdraw') {
              return requestWithdrawal(
                { wallet: ledger.wallet('src'), withdrawal: ledger.withdrawal(id) },
                { withdrawalId: id, walletId: 'src', method: 'MOBILE_MONEY', amount: c.amount },
                owner,
                { destination: '+2290197000001' },
              );
            }
            return placeHold(ledger.wallet('src'), {
              holdId: id,
              amount: c.amount,
              purpose: 'Contrat',
            });
          };
          const versionsOf = (d: Decision<unknown>) =>
            Object.fromEntries(d.writes.map((w) => [w.streamId, ledger.version(w.streamId)]));

          // Every command decides against the same snapshot.
          const pending = commands.map((_, i) => {
            try {
              const d = decide(i);
              return { i, d, versions: versionsOf(d) };
            } catch (error) {
              if (!isAppError(error)) throw error;
              return null;
            }
          });
          let accepted = 0;
          let conflicts = 0;
          const queue = pending.filter((p) => p !== null);
          const picks = order[Symbol.iterator]();
          while (queue.length > 0) {
            const [entry] = queue.splice(picks.next().value % queue.length, 1);
            try {
              ledger.apply(entry!.d, entry!.versions);
              accepted++;
            } catch (error) {
              expect(error).toBeInstanceOf(ConcurrencyError);
              conflicts++;
              // Retry on fresh state: either accepted now or refused by the rule.
              try {
                const d = decide(entry!.i);
                ledger.apply(d, versionsOf(d));
                accepted++;
              } catch (retryError) {
                if (!isAppError(retryError) || retryError instanceof ConcurrencyError)
                  throw retryError;
              }
            }
            const state = ledger.wallet('src');
            expect(state.balance).toBeGreaterThanOrEqual(0);
            expect(state.availableBalance).toBeGreaterThanOrEqual(0);
          }
          const state = ledger.wallet('src');
          expect(state.balance + ledger.wallet('dst').balance + payouts(ledger)).toBe(funded);
          expect(ledger.version(walletStreamId('src'))).toBeGreaterThanOrEqual(
            accepted > 0 ? 2 : 1,
          );
          return conflicts >= 0;
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);
});

function payouts(ledger: InMemoryWalletLedger): number {
  return ledger
    .postings()
    .filter((p) => p.account === 'payout:MOBILE_MONEY')
    .reduce((sum, p) => sum + p.amount, 0);
}
