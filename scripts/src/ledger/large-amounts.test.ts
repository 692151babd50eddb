import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { EventCatalogue, EventStore } from '@filiere/event-store';
import {
  move,
  walletAccount,
  walletEvent,
  walletModule,
  walletStreamId,
  type WalletEvent,
} from '@filiere/api/wallet';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import { runLedgerCheck } from './check-run.js';
import { createLedgerDb } from './database.js';
import { runLedgerRebuild } from './rebuild-run.js';
import type { Database } from '@filiere/api';

const t = useTestDatabase<Database>();

/** The largest amount the event schemas ever accepted (2^53 − 1, before the ceilings). */
const LEGACY_MAX = Number.MAX_SAFE_INTEGER;
const CREDITS = 7;

/**
 * A ledger written before the amount ceilings existed: a wallet credited 7 times with
 * 2^53 − 1 (its balance is past 2^55), then paying part of it to another wallet. The live
 * tables were projected event by event (PostgreSQL adds exactly); a replay applies them all
 * in one batch, where JavaScript numbers would round the sum.
 */
beforeAll(async () => {
  const catalogue = new EventCatalogue(walletModule.events);
  const decode = catalogueDecoder(catalogue);
  const store = new EventStore(t.db, catalogue);
  const appendAndProject = async (streamId: string, event: WalletEvent) => {
    await store.append([{ streamId, expectedVersion: 'any', events: [event] }]);
    for (const projector of walletModule.projectors) {
      await catchUp(t.db, projector, { decode });
    }
  };
  await appendAndProject(
    walletStreamId('big'),
    walletEvent('WalletOpened', { walletId: 'big', ownerUserId: 'u-big' }),
  );
  await appendAndProject(
    walletStreamId('small'),
    walletEvent('WalletOpened', { walletId: 'small', ownerUserId: 'u-small' }),
  );
  for (let i = 1; i <= CREDITS; i++) {
    await appendAndProject(
      walletStreamId('big'),
      walletEvent('SupplyCredited', {
        walletId: 'big',
        reference: `LEGACY-${i}`,
        method: 'BANK',
        amount: LEGACY_MAX,
        providerTransactionId: null,
        postings: move('bank:BOA', walletAccount('big'), LEGACY_MAX),
      }),
    );
  }
  await appendAndProject(
    walletStreamId('big'),
    walletEvent('TransferSent', {
      reference: 'LEGACY-T',
      fromWalletId: 'big',
      toWalletId: 'small',
      amount: 3,
      reason: 'Reste',
      postings: move(walletAccount('big'), walletAccount('small'), 3),
    }),
  );
});

describe('ledger:check and ledger:rebuild on amounts past 2^53', () => {
  it('check finds the replay equal to the live tables, and never throws', async () => {
    const lines: string[] = [];
    const code = await runLedgerCheck(t.db, {
      names: [],
      modules: [walletModule],
      print: (line) => lines.push(line),
    });
    expect(lines.filter((l) => !l.includes(': OK at position'))).toEqual([]);
    expect(code).toBe(0);
  });

  it('rebuild keeps the exact balance and totals (checked as text, past 2^53)', async () => {
    const lines: string[] = [];
    expect(
      await runLedgerRebuild(t.db, {
        names: [],
        modules: [walletModule],
        print: (line) => lines.push(line),
      }),
    ).toBe(0);
    const exact = (BigInt(LEGACY_MAX) * BigInt(CREDITS) - 3n).toString();
    const balance = await t.db
      .selectFrom('wallet_balances')
      .select((eb) => [
        eb.cast<string>('balance', 'text').as('balance'),
        eb.cast<string>('available_balance', 'text').as('available'),
      ])
      .where('wallet_id', '=', 'big')
      .executeTakeFirstOrThrow();
    expect(balance).toEqual({ balance: exact, available: exact });
    const totals = await t.db
      .selectFrom('wallet_reporting_totals')
      .select((eb) => eb.cast<string>('total_supplies', 'text').as('total'))
      .where('wallet_id', '=', 'big')
      .executeTakeFirstOrThrow();
    expect(totals.total).toBe((BigInt(LEGACY_MAX) * BigInt(CREDITS)).toString());
    expect(
      await runLedgerCheck(t.db, {
        names: [],
        modules: [walletModule],
        print: () => undefined,
      }),
    ).toBe(0);
  });

  it('check prints a differing row past 2^53 (as text) and exits 1; rebuild repairs it', async () => {
    await sql`update wallet_balances set balance = balance + 1 where wallet_id = 'big'`.execute(
      t.db,
    );
    const db = createLedgerDb(t.url);
    try {
      const lines: string[] = [];
      const code = await runLedgerCheck(db, {
        names: ['wallet-balances'],
        modules: [walletModule],
        print: (line) => lines.push(line),
      });
      expect(code).toBe(1);
      const exact = BigInt(LEGACY_MAX) * BigInt(CREDITS) - 3n;
      expect(lines.find((l) => l.includes('live only'))).toContain(`"balance":"${exact + 1n}"`);
      expect(lines.find((l) => l.includes('replay only'))).toContain(`"balance":"${exact}"`);
      expect(
        await runLedgerRebuild(db, {
          names: ['wallet-balances'],
          modules: [walletModule],
          print: () => undefined,
        }),
      ).toBe(0);
    } finally {
      await db.destroy();
    }
    expect(
      await runLedgerCheck(t.db, {
        names: [],
        modules: [walletModule],
        print: () => undefined,
      }),
    ).toBe(0);
  });
});
