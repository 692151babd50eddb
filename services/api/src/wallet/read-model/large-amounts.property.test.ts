import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from '@filiere/event-store';
import {
  move,
  walletAccount,
  walletEvent,
  walletStreamId,
  type WalletEvent,
} from '../domain/index.js';
import { useTestDatabase } from '@filiere/platform/testing';
import { catchUp, checkProjector } from '@filiere/projections';
import { balancesProjector, reportingProjector } from './index.js';
import { walletCatalogue, walletDecoder } from './test-support.js';
import type { Database } from '../../database.js';

const t = useTestDatabase<Database>();

/** The largest amount the event schemas ever accepted (before the ceilings): 2^53 − 1. */
const LEGACY_MAX = Number.MAX_SAFE_INTEGER;

beforeAll(() => {});

type Step =
  | { kind: 'credit'; wallet: 0 | 1; amount: number }
  | { kind: 'transfer'; from: 0 | 1; amount: number };

/** Amounts near and at the old maximum: every sum of two of them is past 2^53. */
const amount = fc.oneof(
  fc.constant(LEGACY_MAX),
  fc.integer({ min: 2 ** 52, max: LEGACY_MAX }),
  fc.integer({ min: 1, max: 1_000 }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('credit' as const), wallet: fc.constantFrom(0, 1), amount }),
  fc.record({ kind: fc.constant('transfer' as const), from: fc.constantFrom(0, 1), amount }),
);

let run = 0;

/**
 * Large-amount ledgers (as written before the ceilings) projected in batches of any size:
 * the balances and reporting totals equal the exact (bigint) sums, read back as text, and a
 * replay in one batch finds no difference with the live tables.
 */
describe('wallet projectors sum exactly past 2^53', () => {
  it('balances and totals equal the bigint sums, whatever the batch size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 13 }),
        async (steps, batchSize) => {
          const ids = [`big-${++run}-a`, `big-${run}-b`] as const;
          const store = new EventStore(t.db, walletCatalogue);
          const writes: { streamId: string; events: WalletEvent[] }[][] = ids.map((walletId) => [
            {
              streamId: walletStreamId(walletId),
              events: [walletEvent('WalletOpened', { walletId, ownerUserId: `u-${walletId}` })],
            },
          ]);
          const balance: [bigint, bigint] = [0n, 0n];
          const supplied: [bigint, bigint] = [0n, 0n];
          const sent: [bigint, bigint] = [0n, 0n];
          steps.forEach((s, i) => {
            if (s.kind === 'credit') {
              const walletId = ids[s.wallet];
              writes.push([
                {
                  streamId: walletStreamId(walletId),
                  events: [
                    walletEvent('SupplyCredited', {
                      walletId,
                      reference: `S-${run}-${i}`,
                      method: 'BANK',
                      amount: s.amount,
                      providerTransactionId: null,
                      postings: move('bank:BOA', walletAccount(walletId), s.amount),
                    }),
                  ],
                },
              ]);
              balance[s.wallet] += BigInt(s.amount);
              supplied[s.wallet] += BigInt(s.amount);
            } else {
              const to = s.from === 0 ? 1 : 0;
              const data = {
                reference: `T-${run}-${i}`,
                fromWalletId: ids[s.from],
                toWalletId: ids[to],
                amount: s.amount,
                reason: 'Gros',
              };
              writes.push([
                {
                  streamId: walletStreamId(ids[s.from]),
                  events: [
                    walletEvent('TransferSent', {
                      ...data,
                      postings: move(walletAccount(ids[s.from]), walletAccount(ids[to]), s.amount),
                    }),
                  ],
                },
                {
                  streamId: walletStreamId(ids[to]),
                  events: [walletEvent('TransferReceived', data)],
                },
              ]);
              balance[s.from] -= BigInt(s.amount);
              balance[to] += BigInt(s.amount);
              sent[s.from] += BigInt(s.amount);
            }
          });
          for (const write of writes) {
            await store.append(write.map((w) => ({ ...w, expectedVersion: 'any' as const })));
          }
          for (const projector of [balancesProjector, reportingProjector]) {
            await catchUp(t.db, projector, { batchSize, decode: walletDecoder });
          }
          const balances = await sql<{ wallet_id: string; balance: string; available: string }>`
            select wallet_id, balance::text as balance, available_balance::text as available
            from wallet_balances where wallet_id in (${ids[0]}, ${ids[1]}) order by wallet_id`.execute(
            t.db,
          );
          expect(balances.rows).toEqual(
            ids.map((walletId, w) => ({
              wallet_id: walletId,
              balance: balance[w]!.toString(),
              available: balance[w]!.toString(),
            })),
          );
          const totals = await sql<{ wallet_id: string; supplies: string; transfer: string }>`
            select wallet_id, total_supplies::text as supplies, total_transfer::text as transfer
            from wallet_reporting_totals where wallet_id in (${ids[0]}, ${ids[1]})
            order by wallet_id`.execute(t.db);
          expect(totals.rows).toEqual(
            ids
              .map((walletId, w) => ({
                wallet_id: walletId,
                supplies: supplied[w]!.toString(),
                transfer: sent[w]!.toString(),
              }))
              .filter((_, w) => supplied[w]! > 0n || sent[w]! > 0n),
          );
        },
      ),
      { numRuns: 15 },
    );
    // The whole log replayed in one batch gives the same tables as the live batches did.
    for (const projector of [balancesProjector, reportingProjector]) {
      expect(
        (await checkProjector(t.db, projector, { decode: walletDecoder })).differences,
      ).toEqual([]);
    }
  });
});
