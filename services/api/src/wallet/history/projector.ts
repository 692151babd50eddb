import { sql } from 'kysely';
import { defineProjector, boolArray, intArray, textArray } from '@filiere/projections';
import { walletAccount, type WalletEvent } from '../domain/index.js';
import { isDeliverySettlement } from '../../kernel/references.js';
import { asWalletEvent, walletIdOfStream } from '../read-model/events.js';
import { movementReference } from '../read-model/movement-reference.js';
import { exact, negate, plus, type Exact } from '../read-model/exact.js';
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
  /** `wallet:<openedWalletId>`, the account its postings name (null before WalletOpened). */
  account: string | null;
  balance: Exact;
  held: Exact;
}

/** What an event did to a wallet's balance and held amount. */
interface Effect {
  balance: Exact;
  held: Exact;
}

/** Σ of the postings to `account` (none before WalletOpened named the wallet). */
function posted(account: string | null, postings: { account: string; amount: number }[]): Exact {
  if (account === null) return 0;
  let sum: Exact = 0;
  for (const p of postings) if (p.account === account) sum = plus(sum, p.amount);
  return sum;
}

/**
 * The wallet stream's `evolveWallet` on the balances only, exact past 2^53 (a ledger written
 * before the ceilings may hold more): the same cases and the same arithmetic — postings to
 * `wallet:<id>` (none before WalletOpened named the wallet), the amount of a `…Received`
 * event, and the holds' amounts on `held`. It moves `b` in place (the projector's own state,
 * never an event) and answers what the event did.
 */
function evolveBalances(b: Balances, event: WalletEvent, effect: Effect): void {
  effect.balance = 0;
  effect.held = 0;
  switch (event.type) {
    case 'WalletOpened':
      b.opened = true;
      b.openedWalletId = event.data.walletId;
      b.account = walletAccount(event.data.walletId);
      return;
    case 'SupplyCredited':
    case 'TransferSent':
    case 'FinancingSent':
    case 'HoldSettlementPaid':
    case 'WithdrawalDebited':
    case 'WithdrawalRefunded':
      effect.balance = posted(b.account, event.data.postings);
      break;
    case 'TransferReceived':
    case 'FinancingReceived':
    case 'HoldPaymentReceived':
    case 'HoldSettlementReceived':
      effect.balance = event.data.amount;
      break;
    case 'HoldPlaced':
      effect.held = event.data.amount;
      break;
    case 'HoldReleased':
      effect.held = -event.data.amount;
      break;
    case 'HoldCaptured':
      effect.balance = posted(b.account, event.data.postings);
      effect.held = -event.data.amount;
      break;
    case 'HoldSettled':
      effect.held = negate(plus(event.data.captured, event.data.released));
      break;
    default:
      return;
  }
  b.balance = plus(b.balance, effect.balance);
  b.held = plus(b.held, effect.held);
}

/**
 * The movement's reference for the statement (kernel/references.ts, as the transactions
 * list): a hold's movements keep the hold's id, which the statement's query turns into the
 * hold's reference with the hold's code (wallet_hold_labels), except an input delivery's
 * settlement, whose reference is its own advance's.
 */
function referenceOf(event: WalletEvent): string | null {
  switch (event.type) {
    case 'HoldSettlementPaid':
    case 'HoldSettlementReceived':
      return isDeliverySettlement(event.data.settlementId)
        ? movementReference(event, undefined)
        : event.data.holdId;
    case 'HoldPlaced':
    case 'HoldReleased':
    case 'HoldCaptured':
    case 'HoldPaymentReceived':
    case 'HoldSettled':
      return event.data.holdId;
    default:
      return movementReference(event, undefined);
  }
}

/**
 * `wallet_balance_history`: after each event of a `wallet-…` stream, the wallet's balance,
 * held and available balance, folded as the wallet stream's own `evolveWallet` does (exactly,
 * past 2^53 too) from the row before. `recorded_at` is copied from the log in SQL (a JS Date
 * would drop its microseconds, and an instant inside a group-committed batch must compare as
 * the log does).
 *
 * One insert per batch whatever its size: one array per column, spread by `unnest` (a
 * multi-row VALUES would bind 11 parameters a row, which Kysely would compile node by node and
 * PostgreSQL parse and plan anew for every batch size). No `on conflict do nothing`: the
 * engine applies each event once (rows and checkpoint commit together), so a row already there
 * would be an engine bug, which the primary key reports instead of skipping the batch's
 * rows in silence; a conflict check would cost a sixth of the insert's PostgreSQL time.
 */
export const balanceHistoryProjector = defineProjector<WalletHistoryTables>({
  name: 'wallet-balance-history',
  eventTypes: [...WALLET_BALANCE_EVENT_TYPES],
  tables: ['wallet_balance_history'],
  async apply(trx, events) {
    const streamWallet: (string | undefined)[] = events.map((e) => walletIdOfStream(e.streamId));
    const walletIds = [...new Set(streamWallet)].filter((w): w is string => w !== undefined);
    if (!walletIds.length) return;
    // Each wallet's last row by one backward probe of the primary key (wallet_id, position):
    // `distinct on (wallet_id)` read every row of each wallet (its cost grew with the history:
    // 0.31 ms of PostgreSQL per transfer after ~20,000 transfers in bench:wallet).
    const last = await trx
      .selectFrom(
        sql<{
          wallet_id: string;
        }>`(select unnest(${textArray(walletIds)}::text[]) as wallet_id)`.as('w'),
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
    const current = new Map<string, Balances>();
    for (const r of last) {
      current.set(r.wallet_id, {
        opened: r.opened,
        openedWalletId: r.opened_wallet_id,
        account: r.opened_wallet_id === null ? null : walletAccount(r.opened_wallet_id),
        balance: exact(r.balance),
        held: exact(r.held),
      });
    }
    // The rows, column by column.
    const col = {
      walletId: [] as string[],
      position: [] as number[],
      version: [] as number[],
      type: [] as string[],
      amount: [] as Exact[],
      availableAmount: [] as Exact[],
      balance: [] as Exact[],
      held: [] as Exact[],
      opened: [] as boolean[],
      openedWalletId: [] as (string | null)[],
      reference: [] as (string | null)[],
    };
    const effect: Effect = { balance: 0, held: 0 };
    for (let i = 0; i < events.length; i++) {
      const walletId = streamWallet[i];
      if (walletId === undefined) continue;
      const recorded = events[i]!;
      let b = current.get(walletId);
      if (!b) {
        b = { opened: false, openedWalletId: null, account: null, balance: 0, held: 0 };
        current.set(walletId, b);
      }
      const event = asWalletEvent(recorded);
      evolveBalances(b, event, effect);
      col.walletId.push(walletId);
      col.position.push(recorded.position);
      col.version.push(recorded.version);
      col.type.push(recorded.type);
      col.amount.push(effect.balance);
      // What it did to the available balance (balance − held).
      col.availableAmount.push(plus(effect.balance, negate(effect.held)));
      col.balance.push(b.balance);
      col.held.push(b.held);
      col.opened.push(b.opened);
      col.openedWalletId.push(b.openedWalletId);
      col.reference.push(referenceOf(event));
    }
    // Through the query builder (the rebuild's schema applies to the target table); the
    // log itself is read by its name, always the live `events`.
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
        from unnest(${textArray(col.walletId)}::text[], ${intArray(col.position)}::bigint[],
          ${intArray(col.version)}::integer[], ${textArray(col.type)}::text[],
          ${intArray(col.amount)}::bigint[], ${intArray(col.availableAmount)}::bigint[],
          ${intArray(col.balance)}::bigint[], ${intArray(col.held)}::bigint[],
          ${boolArray(col.opened)}::boolean[], ${textArray(col.openedWalletId)}::text[],
          ${textArray(col.reference)}::text[])
          as v (wallet_id, position, version, type, amount, available_amount, balance, held,
            opened, opened_wallet_id, reference)
        join events e on e.position = v.position`,
      )
      .execute();
  },
});
