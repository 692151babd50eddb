import { beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from '@filiere/event-store';
import { transfer } from '../domain/index.js';
import { useTestDatabase } from '@filiere/platform/testing';
import { checkProjector } from '@filiere/projections';
import { projectWallet, RecordingLedger, walletCatalogue, walletDecoder } from './test-support.js';
import { transactionsProjector } from './transactions.js';
import type { Database } from '../../database.js';

const t = useTestDatabase<Database>();

describe('wallet-transactions replayed in 10,000-event batches (ledger:check, ledger:rebuild)', () => {
  const TRANSFERS = 2_500; // 5,000 rows of 18 columns: past PostgreSQL's 65,535 parameters

  beforeAll(async () => {
    const ledger = new RecordingLedger();
    const a = ledger.open('wa', 'ua');
    ledger.open('wb', 'ub');
    ledger.fund(a, 10_000_000, 'S-A');
    const recipient = {
      recipient: {
        userId: 'ub',
        role: 'ROLE_INDUSTRIAL',
        clusterId: 'c1',
        status: 'ACTIVE' as const,
      },
    };
    for (let i = 0; i < TRANSFERS; i++) {
      ledger.apply(
        transfer(
          { source: ledger.wallet('wa'), destination: ledger.wallet('wb') },
          {
            reference: `T-${i}`,
            sourceWalletId: 'wa',
            destinationWalletId: 'wb',
            amount: 10,
            reason: 'lot',
          },
          a,
          recipient,
        ),
      );
    }
    // Few appends keep the set-up short: both wallets' WalletOpened first (as the API
    // opens a wallet before any movement), then the rest of each stream.
    const store = new EventStore(t.db, walletCatalogue);
    const streams = [...ledger.streams];
    await store.append(
      streams.map(([streamId, events]) => ({
        streamId,
        expectedVersion: 'any' as const,
        events: events.slice(0, 1),
      })),
    );
    await store.append(
      streams
        .filter(([, events]) => events.length > 1)
        .map(([streamId, events]) => ({
          streamId,
          expectedVersion: 'any' as const,
          events: events.slice(1),
        })),
    );
    await projectWallet(t.db);
  }, 120_000);

  it('a replay of thousands of rows in one batch equals the live table', async () => {
    const result = await checkProjector(t.db, transactionsProjector, { decode: walletDecoder });
    expect(result.differences).toEqual([]);
    const { rows } = await t.db
      .selectFrom('wallet_transactions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .execute()
      .then((r) => ({ rows: r }));
    expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(2 * TRANSFERS);
  }, 120_000);
});
