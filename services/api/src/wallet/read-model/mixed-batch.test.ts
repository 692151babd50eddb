import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from '@filiere/event-store';
import { useTestDatabase } from '@filiere/platform/testing';
import { catchUp, checkProjector, type Projector, type PushMessage } from '@filiere/projections';
import {
  captureHold,
  completeWithdrawal,
  failWithdrawal,
  finance,
  initiateSupply,
  placeHold,
  releaseHold,
  requestSystemPayout,
  requestWithdrawal,
  settleHold,
  transfer,
  verifySupply,
} from '../domain/index.js';
import { balanceHistoryProjector } from '../history/projector.js';
import { beninMonth } from './events.js';
import { walletProjectors } from './index.js';
import { RecordingLedger, testBank, walletCatalogue, walletDecoder } from './test-support.js';
import type { Database } from '../../database.js';

const t = useTestDatabase<Database>();

const projectors: Projector[] = [...walletProjectors, balanceHistoryProjector];

/** Text a projector must carry as it is (quotes, a backslash, commas, braces, NULL, accents). */
const AWKWARD = 'Lot "7", caisse \\ {a,b} NULL – récolte d’août';

/**
 * Every wallet event type in one batch per projector, every column of every wallet read table
 * pinned (positions relative to the first event, instants as the event they were taken from),
 * then each projector replayed event by event (`checkProjector`, batches of 1) and in batches of
 * 4: the same rows. Written before the projectors' writes became one `unnest` statement per
 * table, so that the new statements must give the rows the old ones gave.
 */
describe('wallet projectors over one batch mixing every wallet event', () => {
  const pushes: PushMessage[] = [];
  let base = 0;
  /** Each event's `recorded_at` in ms (a JS Date's precision), by relative position. */
  let times: number[] = [];

  beforeAll(async () => {
    const l = new RecordingLedger();
    const a = l.open('wa', 'ua');
    const b = l.open('wb', 'ub');
    const c = l.open('wc', 'uc', 'ROLE_GROWER');
    const recipient = (userId: string) => ({
      recipient: { userId, role: 'ROLE_INDUSTRIAL', clusterId: 'c1', status: 'ACTIVE' as const },
    });
    l.apply(
      initiateSupply(
        { wallet: l.wallet('wa'), supply: l.supply('S-A') },
        { reference: 'S-A', walletId: 'wa', method: 'MOBILE_MONEY', amount: 50_000 },
        a,
        { bank: testBank },
      ),
    );
    l.apply(
      verifySupply({ supply: l.supply('S-A'), wallet: l.wallet('wa') }, { reference: 'S-A' }, a, {
        verification: { status: 'SUCCESS', amount: 50_000, reference: 'S-A', transactionId: 'k1' },
      }),
    );
    l.apply(
      initiateSupply(
        { wallet: l.wallet('wa'), supply: l.supply('S-F') },
        { reference: 'S-F', walletId: 'wa', method: 'CARD', amount: 700 },
        a,
        { bank: testBank },
      ),
    );
    l.apply(
      verifySupply({ supply: l.supply('S-F'), wallet: l.wallet('wa') }, { reference: 'S-F' }, a, {
        verification: { status: 'FAILED', amount: 700, reference: 'S-F', transactionId: 'k2' },
      }),
    );
    l.fund(b, 20_000, 'S-B');
    l.fund(c, 3_000, 'S-C');
    l.apply(
      transfer(
        { source: l.wallet('wa'), destination: l.wallet('wb') },
        {
          reference: 'T-1',
          sourceWalletId: 'wa',
          destinationWalletId: 'wb',
          amount: 4_000,
          reason: AWKWARD,
        },
        a,
        recipient('ub'),
      ),
    );
    l.apply(
      finance(
        { source: l.wallet('wb'), destination: l.wallet('wa') },
        { reference: 'F-1', sourceWalletId: 'wb', destinationWalletId: 'wa', amount: 1_500 },
        b,
        recipient('ua'),
      ),
    );
    l.apply(
      requestWithdrawal(
        { wallet: l.wallet('wa'), withdrawal: l.withdrawal('W-A') },
        { withdrawalId: 'W-A', walletId: 'wa', method: 'MOBILE_MONEY', amount: 2_000 },
        a,
        { destination: '+2290197000001' },
      ),
    );
    l.apply(
      requestWithdrawal(
        { wallet: l.wallet('wb'), withdrawal: l.withdrawal('W-B') },
        { withdrawalId: 'W-B', walletId: 'wb', method: 'BANK', amount: 1_000 },
        b,
        { destination: 'BJ066' },
      ),
    );
    l.apply(
      failWithdrawal(
        { withdrawal: l.withdrawal('W-A'), wallet: l.wallet('wa') },
        { withdrawalId: 'W-A', reason: 'Numéro injoignable' },
      ),
    );
    l.apply(completeWithdrawal(l.withdrawal('W-B'), { withdrawalId: 'W-B' }, { bankCode: 'BOA' }));
    l.apply(
      requestSystemPayout(
        { wallet: l.wallet('wc'), withdrawal: l.withdrawal('W-C') },
        { withdrawalId: 'W-C', walletId: 'wc', amount: 500, reason: AWKWARD },
        { destination: '+2290197000003' },
      ),
    );
    l.apply(completeWithdrawal(l.withdrawal('W-C'), { withdrawalId: 'W-C' }, { bankCode: 'BOA' }));
    // Holds: a delivery contract's captured, an input assignment's released, a carriage
    // contract's settled in two payments and closed.
    const hold = (walletId: string, holdId: string, amount: number, purpose: string) =>
      l.apply(placeHold(l.wallet(walletId), { holdId, amount, purpose }));
    hold('wa', 'contract-1', 6_000, 'Contrat de livraison LIV-93F1C694');
    hold('wa', 'input-assignment-7', 900, 'Fournisseur d’intrant, saison 2026');
    hold('wb', 'carriage-1', 5_000, 'Contrat de transport TR-2026-0001');
    l.apply(
      captureHold(
        { wallet: l.wallet('wa'), destinations: { wc: l.wallet('wc') } },
        { holdId: 'contract-1', payments: [{ walletId: 'wc', amount: 6_000 }] },
      ),
    );
    l.apply(releaseHold(l.wallet('wa'), { holdId: 'input-assignment-7' }));
    l.apply(
      settleHold(
        { wallet: l.wallet('wb'), destinations: { wa: l.wallet('wa'), wc: l.wallet('wc') } },
        {
          holdId: 'carriage-1',
          settlementId: 's1',
          payments: [
            { walletId: 'wa', amount: 1_200 },
            { walletId: 'wc', amount: 2_300 },
          ],
          closeHold: true,
          allowExcess: false,
        },
      ),
    );
    // One store transaction per decision, 2 ms apart: each transaction's instant is its own
    // millisecond, so an instant names the first event of its transaction (the `@n` below).
    const store = new EventStore(t.db, walletCatalogue);
    for (const writes of l.decisions.splice(0)) {
      await store.append(
        writes.map((w) => ({
          streamId: w.streamId,
          expectedVersion: 'any' as const,
          events: w.events,
        })),
      );
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const events = await sql<{ first: string; at: Date }>`
      select min(position) over ()::text as first, recorded_at as at
      from events order by events.position`.execute(t.db);
    base = Number(events.rows[0]!.first);
    times = events.rows.map((r) => r.at.getTime());
    for (const projector of projectors) {
      await catchUp(t.db, projector, {
        decode: walletDecoder,
        batchSize: 10_000,
        publish: async (messages) => void pushes.push(...messages),
      });
    }
  });

  /**
   * A cell as the expectations write it: a position relative to the first event, an instant as
   * `@n`, the first event recorded at it (its transaction's), null as `-`.
   */
  const show = (column: string, value: unknown): string => {
    if (value === null) return '-';
    if (value instanceof Date) return `@${times.indexOf(value.getTime())}`;
    if (column === 'id' || column === 'position') return String(Number(value) - base);
    return String(value);
  };
  /** A table's rows, each as its cells in column order joined by `|`. */
  const dump = async (table: string, orderBy: string) => {
    const { rows } = await sql<Record<string, unknown>>`
      select * from ${sql.table(table)} order by ${sql.raw(orderBy)}`.execute(t.db);
    return rows.map((r) =>
      Object.entries(r)
        .map(([k, v]) => show(k, v))
        .join('|'),
    );
  };

  it('wallet-transactions: every column of its four tables', async () => {
    const { year, month } = beninMonth(new Date(times[0]!));
    expect(await dump('wallet_transactions', 'id')).toEqual([
      '5|supply:S-A|wa|ua|S-A|SUPPLY|IN|50000|SUCCESS|-|-|wa|-|ua|MOBILE_MONEY|-|@4|@4',
      '10|supply:S-B|wb|ub|S-B|SUPPLY|IN|20000|SUCCESS|-|-|wb|-|ub|BANK|-|@9|@9',
      '13|supply:S-C|wc|uc|S-C|SUPPLY|IN|3000|SUCCESS|-|-|wc|-|uc|BANK|-|@12|@12',
      '14|transfer:T-1:out|wa|ua|T-1|TRANSFER|OUT|4000|SUCCESS|Lot "7", caisse \\ {a,b} NULL – récolte d’août|wa|wb|ua|ub|-|-|@14|@14',
      '15|transfer:T-1:in|wb|ub|T-1|TRANSFER|IN|4000|SUCCESS|Lot "7", caisse \\ {a,b} NULL – récolte d’août|wa|wb|ua|ub|-|-|@14|@14',
      '16|financing:F-1:out|wb|ub|F-1|STANDARD|OUT|1500|SUCCESS|Financement|wb|wa|ub|ua|-|-|@16|@16',
      '17|financing:F-1:in|wa|ua|F-1|STANDARD|IN|1500|SUCCESS|Financement|wb|wa|ub|ua|-|-|@16|@16',
      '19|withdrawal:W-A|wa|ua|W-A|DEBIT|OUT|2000|FAILED|-|wa|-|ua|-|MOBILE_MONEY|+2290197000001|@18|@22',
      '21|withdrawal:W-B|wb|ub|W-B|DEBIT|OUT|1000|SUCCESS|-|wb|-|ub|-|BANK|BJ066|@20|@24',
      '23|refund:W-A|wa|ua|W-A|REFUND|IN|2000|SUCCESS|Numéro injoignable|-|wa|-|ua|MOBILE_MONEY|-|@22|@22',
      '26|withdrawal:W-C|wc|uc|W-C|DEBIT|OUT|500|SUCCESS|Lot "7", caisse \\ {a,b} NULL – récolte d’août|wc|-|uc|-|MOBILE_MONEY|+2290197000003|@25|@27',
      '31|hold:contract-1:out|wa|ua|LIV-93F1C694|STANDARD|OUT|6000|SUCCESS|-|wa|wc|ua|uc|-|-|@31|@31',
      '32|hold:contract-1:in:wc|wc|uc|LIV-93F1C694|STANDARD|IN|6000|SUCCESS|-|wa|wc|ua|uc|-|-|@31|@31',
      '35|settlement:carriage-1:s1:wa:out|wb|ub|TR-2026-0001|STANDARD|OUT|1200|SUCCESS|-|wb|wa|ub|ua|-|-|@34|@34',
      '36|settlement:carriage-1:s1:wc:out|wb|ub|TR-2026-0001|STANDARD|OUT|2300|SUCCESS|-|wb|wc|ub|uc|-|-|@34|@34',
      '37|settlement:carriage-1:s1:wa:in|wa|ua|TR-2026-0001|STANDARD|IN|1200|SUCCESS|-|wb|wa|ub|ua|-|-|@34|@34',
      '38|settlement:carriage-1:s1:wc:in|wc|uc|TR-2026-0001|STANDARD|IN|2300|SUCCESS|-|wb|wc|ub|uc|-|-|@34|@34',
    ]);
    expect(await dump('wallet_monthly_counts', 'wallet_id, year, month')).toEqual([
      `wa|${year}|${month}|7`,
      `wb|${year}|${month}|6`,
      `wc|${year}|${month}|4`,
    ]);
    expect(await dump('wallet_transaction_owners', 'wallet_id')).toEqual([
      'wa|ua',
      'wb|ub',
      'wc|uc',
    ]);
    expect(await dump('wallet_hold_labels', 'hold_id')).toEqual([
      'carriage-1|TR-2026-0001',
      'contract-1|LIV-93F1C694',
    ]);
  });

  it('wallet-balances, wallet-reporting, wallet-supplies, wallet-financing: every column', async () => {
    expect(await dump('wallet_balances', 'wallet_id')).toEqual([
      'wa|ua|42700|0|42700|1200|@34',
      'wb|ub|18000|0|18000|2300|@34',
      'wc|uc|10800|0|10800|2300|@34',
    ]);
    expect(await dump('wallet_reporting_totals', 'wallet_id')).toEqual([
      'wa|1|2000|1|50000|1|4000',
      'wb|1|1000|1|20000|0|0',
      'wc|1|500|1|3000|0|0',
    ]);
    expect(await dump('wallet_reporting_owners', 'wallet_id')).toEqual(['wa|ua', 'wb|ub', 'wc|uc']);
    expect(await dump('wallet_supplies', 'reference')).toEqual([
      'S-A|wa|ua|MOBILE_MONEY|50000|-|-|SUCCESS|-|k1|-|@3|@4|-|-',
      'S-B|wb|ub|BANK|20000|BOA|BJ0660100100000012345678901|SUCCESS|-|-|u-super|@8|@9|-|-',
      'S-C|wc|uc|BANK|3000|BOA|BJ0660100100000012345678901|SUCCESS|-|-|u-super|@11|@12|-|-',
      'S-F|wa|ua|CARD|700|-|-|FAILED|Paiement refusé par le fournisseur|k2|-|@6|@7|-|-',
    ]);
    expect(await dump('wallet_supply_stats', 'user_id')).toEqual([
      'ua|wa|1|50000|@4',
      'ub|wb|1|20000|@9',
      'uc|wc|1|3000|@12',
    ]);
    expect(await dump('wallet_financings', 'reference')).toEqual([
      'F-1|wb|wa|ub|ua|1500|SUCCESS|@16',
    ]);
  });

  it('wallet-balance-history: every column, recorded_at to the microsecond of its event', async () => {
    expect(await dump('wallet_balance_history', 'position')).toEqual([
      'wa|0|1|@0|WalletOpened|0|0|0|0|0|true|wa|-',
      'wb|1|1|@1|WalletOpened|0|0|0|0|0|true|wb|-',
      'wc|2|1|@2|WalletOpened|0|0|0|0|0|true|wc|-',
      'wa|5|2|@4|SupplyCredited|50000|50000|50000|0|50000|true|wa|S-A',
      'wb|10|2|@9|SupplyCredited|20000|20000|20000|0|20000|true|wb|S-B',
      'wc|13|2|@12|SupplyCredited|3000|3000|3000|0|3000|true|wc|S-C',
      'wa|14|3|@14|TransferSent|-4000|-4000|46000|0|46000|true|wa|T-1',
      'wb|15|3|@14|TransferReceived|4000|4000|24000|0|24000|true|wb|T-1',
      'wb|16|4|@16|FinancingSent|-1500|-1500|22500|0|22500|true|wb|F-1',
      'wa|17|4|@16|FinancingReceived|1500|1500|47500|0|47500|true|wa|F-1',
      'wa|19|5|@18|WithdrawalDebited|-2000|-2000|45500|0|45500|true|wa|W-A',
      'wb|21|5|@20|WithdrawalDebited|-1000|-1000|21500|0|21500|true|wb|W-B',
      'wa|23|6|@22|WithdrawalRefunded|2000|2000|47500|0|47500|true|wa|W-A',
      'wc|26|3|@25|WithdrawalDebited|-500|-500|2500|0|2500|true|wc|W-C',
      'wa|28|7|@28|HoldPlaced|0|-6000|47500|6000|41500|true|wa|contract-1',
      'wa|29|8|@29|HoldPlaced|0|-900|47500|6900|40600|true|wa|input-assignment-7',
      'wb|30|6|@30|HoldPlaced|0|-5000|21500|5000|16500|true|wb|carriage-1',
      'wa|31|9|@31|HoldCaptured|-6000|0|41500|900|40600|true|wa|contract-1',
      'wc|32|4|@31|HoldPaymentReceived|6000|6000|8500|0|8500|true|wc|contract-1',
      'wa|33|10|@33|HoldReleased|0|900|41500|0|41500|true|wa|input-assignment-7',
      // The hold's figures before its payments (holds.ts): no position below 0 available.
      'wb|34|7|@34|HoldSettled|0|5000|21500|0|21500|true|wb|carriage-1',
      'wb|35|8|@34|HoldSettlementPaid|-1200|-1200|20300|0|20300|true|wb|carriage-1',
      'wb|36|9|@34|HoldSettlementPaid|-2300|-2300|18000|0|18000|true|wb|carriage-1',
      'wa|37|11|@34|HoldSettlementReceived|1200|1200|42700|0|42700|true|wa|carriage-1',
      'wc|38|5|@34|HoldSettlementReceived|2300|2300|10800|0|10800|true|wc|carriage-1',
    ]);
    const { rows } = await sql<{ n: string }>`
      select count(*)::text as n from wallet_balance_history h
      join events e on e.position = h.position
      where h.recorded_at = e.recorded_at`.execute(t.db);
    const all = await sql<{ n: string }>`select count(*)::text as n from wallet_balance_history`;
    expect(rows[0]!.n).toBe((await all.execute(t.db)).rows[0]!.n);
  });

  it('pushes: the same messages in the same order', () => {
    expect(pushes).toEqual([
      { type: 'wallet.updated', userIds: ['ua', 'ub', 'uc'] },
      { type: 'transactions.updated', userIds: ['ua', 'ub', 'uc'] },
      {
        type: 'withdrawal.settled',
        userIds: ['ua'],
        data: { withdrawalId: 'W-A', amount: 2000, status: 'FAILED' },
      },
      {
        type: 'withdrawal.settled',
        userIds: ['ub'],
        data: { withdrawalId: 'W-B', amount: 1000, status: 'SUCCESS' },
      },
      {
        type: 'withdrawal.settled',
        userIds: ['uc'],
        data: { withdrawalId: 'W-C', amount: 500, status: 'SUCCESS' },
      },
      { type: 'supplies.updated', userIds: ['ua', 'ub', 'uc'] },
      { type: 'financing.updated', userIds: ['ua', 'ub'] },
      { type: 'reporting.updated', userIds: ['ua', 'ub', 'uc'] },
    ]);
  });

  it('a replay event by event, and in batches of 4, writes the same rows', async () => {
    for (const batchSize of [1, 4]) {
      for (const projector of projectors) {
        const check = await checkProjector(t.db, projector, { decode: walletDecoder, batchSize });
        expect(check.differences, `${projector.name} in batches of ${batchSize}`).toEqual([]);
      }
    }
  });
});
