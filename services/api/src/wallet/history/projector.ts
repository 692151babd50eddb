import { sql } from 'kysely';
import { defineProjector, type RecordedEvent } from '@filiere/projections';
import { walletAccount, type WalletEvent } from '../domain/index.js';
import { asWalletEvent, walletIdOfStream } from '../read-model/events.js';
import type { WalletHistoryTables } from './tables.js';

/** Every event type the wallet stream's `evolve` folds (the others leave its balances alone). */
export const WALLET_BALANCE_EVENT_TYPES = [
  'WalletOpened',
  'SupplyCredited',
  'TransferSent',
  'TransferReceived',
  'FinancingSent',
  'FinancingReceived',
  'WithdrawalDebited',
  'WithdrawalRefunded',
  'HoldPlaced',
  'HoldReleased',
  'HoldCaptured',
  'HoldPaymentReceived',
  'HoldSettlementPaid',
  'HoldSettled',
  'HoldSettlementReceived',
] as const;

/** What the fold of a wallet's events keeps that its balances depend on. */
interface Balances {
  opened: boolean;
  openedWalletId: string | null;
  balance: bigint;
  held: bigint;
}

/**
 * The wallet stream's `evolveWallet` on the balances only, in bigint (a ledger written before
 * the ceilings may hold more than 2^53): the same cases and the same arithmetic — postings to
 * `wallet:<id>` (none before WalletOpened named the wallet), the amount of a `…Received`
 * event, and the holds' amounts on `held`.
 */
function evolveBalances(b: Balances, event: WalletEvent): Balances {
  const posted = (postings: { account: string; amount: number }[]) => {
    if (b.openedWalletId === null) return 0n;
    const account = walletAccount(b.openedWalletId);
    return postings.reduce((sum, p) => (p.account === account ? sum + BigInt(p.amount) : sum), 0n);
  };
  switch (event.type) {
    case 'WalletOpened':
      return { ...b, opened: true, openedWalletId: event.data.walletId };
    case 'SupplyCredited':
    case 'TransferSent':
    case 'FinancingSent':
    case 'HoldSettlementPaid':
    case 'WithdrawalDebited':
    case 'WithdrawalRefunded':
      return { ...b, balance: b.balance + posted(event.data.postings) };
    case 'TransferReceived':
    case 'FinancingReceived':
    case 'HoldPaymentReceived':
    case 'HoldSettlementReceived':
      return { ...b, balance: b.balance + BigInt(event.data.amount) };
    case 'HoldPlaced':
      return { ...b, held: b.held + BigInt(event.data.amount) };
    case 'HoldReleased':
      return { ...b, held: b.held - BigInt(event.data.amount) };
    case 'HoldCaptured':
      return {
        ...b,
        balance: b.balance + posted(event.data.postings),
        held: b.held - BigInt(event.data.amount),
      };
    case 'HoldSettled':
      return {
        ...b,
        held: b.held - BigInt(event.data.captured) - BigInt(event.data.released),
      };
    default:
      return b;
  }
}

/** The id a movement is about (reference, withdrawal, hold), for the statement. */
function referenceOf(event: WalletEvent): string | null {
  const data = event.data as Record<string, unknown>;
  for (const key of ['reference', 'withdrawalId', 'holdId', 'transferId', 'financingId']) {
    if (typeof data[key] === 'string') return data[key] as string;
  }
  return null;
}

type Row = {
  walletId: string;
  position: number;
  version: number;
  type: string;
  amount: bigint;
  availableAmount: bigint;
  after: Balances;
  reference: string | null;
};

/**
 * `wallet_balance_history`: after each event of a `wallet-…` stream, the wallet's balance,
 * held and available balance, folded as the wallet stream's own `evolveWallet` does (in bigint) from the
 * row before. `recorded_at` is copied from the log in SQL (a JS Date would drop its
 * microseconds, and an instant inside a group-committed batch must compare as the log does).
 */
export const balanceHistoryProjector = defineProjector<WalletHistoryTables>({
  name: 'wallet-balance-history',
  eventTypes: [...WALLET_BALANCE_EVENT_TYPES],
  tables: ['wallet_balance_history'],
  async apply(trx, events) {
    const mine = events.filter((e) => walletIdOfStream(e.streamId) !== undefined);
    if (!mine.length) return;
    const walletIds = [...new Set(mine.map((e) => walletIdOfStream(e.streamId)!))];
    // Each wallet's last row by one backward probe of the primary key (wallet_id, position):
    // `distinct on (wallet_id)` read every row of each wallet (its cost grew with the history:
    // 0.31 ms of PostgreSQL per transfer after ~20,000 transfers in bench:wallet).
    const last = await trx
      .selectFrom(
        sql<{ wallet_id: string }>`(select unnest(${walletIds}::text[]) as wallet_id)`.as('w'),
      )
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('wallet_balance_history')
            .select([
              'opened',
              'opened_wallet_id',
              sql<string>`balance::text`.as('balance'),
              sql<string>`held::text`.as('held'),
            ])
            .whereRef('wallet_balance_history.wallet_id', '=', sql.ref('w.wallet_id'))
            .orderBy('position', 'desc')
            .limit(1)
            .as('h'),
        (join) => join.onTrue(),
      )
      .select(['w.wallet_id', 'h.opened', 'h.opened_wallet_id', 'h.balance', 'h.held'])
      .execute();
    const current = new Map<string, Balances>(
      last.map((r) => [
        r.wallet_id,
        {
          opened: r.opened,
          openedWalletId: r.opened_wallet_id,
          balance: BigInt(r.balance),
          held: BigInt(r.held),
        },
      ]),
    );
    const rows: Row[] = [];
    for (const recorded of mine as RecordedEvent[]) {
      const walletId = walletIdOfStream(recorded.streamId)!;
      const before = current.get(walletId) ?? {
        opened: false,
        openedWalletId: null,
        balance: 0n,
        held: 0n,
      };
      const event = asWalletEvent(recorded);
      const after = evolveBalances(before, event);
      current.set(walletId, after);
      rows.push({
        walletId,
        position: recorded.position,
        version: recorded.version,
        type: recorded.type,
        amount: after.balance - before.balance,
        availableAmount: after.balance - after.held - (before.balance - before.held),
        after,
        reference: referenceOf(event),
      });
    }
    // Through the query builder (the rebuild's schema applies to the target table); the
    // log itself is read by its name, always the live `events`.
    const values = sql.join(
      rows.map(
        (r) =>
          sql`(${r.walletId}, ${r.position}::bigint, ${r.version}::integer, ${r.type},
            ${r.amount.toString()}::bigint, ${r.availableAmount.toString()}::bigint,
            ${r.after.balance.toString()}::bigint, ${r.after.held.toString()}::bigint, ${r.after.opened}::boolean, ${r.after.openedWalletId}::text,
            ${r.reference}::text)`,
      ),
    );
    await trx
      .insertInto('wallet_balance_history')
      .columns([
        'wallet_id',
        'position',
        'version',
        'recorded_at',
        'type',
        'amount',
        'available_amount',
        'balance',
        'held',
        'available_balance',
        'opened',
        'opened_wallet_id',
        'reference',
      ])
      .expression(
        sql<never>`select v.wallet_id, v.position, v.version, e.recorded_at, v.type, v.amount,
          v.available_amount, v.balance, v.held, v.balance - v.held, v.opened,
          v.opened_wallet_id, v.reference
        from (values ${values}) as v (wallet_id, position, version, type, amount,
          available_amount, balance, held, opened, opened_wallet_id, reference)
        join events e on e.position = v.position`,
      )
      .onConflict((oc) => oc.columns(['wallet_id', 'position']).doNothing())
      .execute();
  },
});
