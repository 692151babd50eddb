import { sql, type Kysely } from 'kysely';
import { holdReference } from '../../kernel/references.js';
import type { WalletHistoryTables } from './tables.js';

/** The balances of a wallet at an instant (after every event recorded at or before it). */
export interface BalanceAt {
  walletId: string;
  /** The instant asked, as given (ISO 8601). */
  at: string;
  balance: number;
  availableBalance: number;
  /** Log position of the wallet's last event at or before `at` (null: none yet). */
  position: number | null;
}

type HistoryDb = Kysely<WalletHistoryTables>;

/**
 * The wallet's balances at `at` — an ISO instant handed to PostgreSQL as text, so its
 * microseconds count as the log's `recorded_at` does: one indexed lookup of the last
 * history row recorded at or before it (`strict`: before it). A wallet stream's
 * `recorded_at` never goes back as its version grows (an append's transaction starts after
 * the stream's previous append committed: its expected version was read after), so that row
 * is the end of the prefix a fold of the events recorded by then goes through.
 */
export async function balanceAt(
  db: HistoryDb,
  walletId: string,
  at: string,
  options: { strict?: boolean } = {},
): Promise<BalanceAt> {
  const row = await db
    .selectFrom('wallet_balance_history')
    .select([
      'position',
      sql<string>`balance::text`.as('balance'),
      sql<string>`available_balance::text`.as('available_balance'),
    ])
    .where('wallet_id', '=', walletId)
    .where('recorded_at', options.strict ? '<' : '<=', sql<Date>`${at}::timestamptz`)
    .orderBy('recorded_at', 'desc')
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    walletId,
    at,
    balance: row ? Number(row.balance) : 0,
    availableBalance: row ? Number(row.available_balance) : 0,
    position: row ? Number(row.position) : null,
  };
}

export interface Movement {
  position: number;
  recordedAt: string;
  type: string;
  reference: string | null;
  amount: number;
  availableAmount: number;
  balance: number;
  availableBalance: number;
}

export interface Statement {
  walletId: string;
  from: string;
  to: string;
  opening: { balance: number; availableBalance: number };
  closing: { balance: number; availableBalance: number };
  /** Sum of the movements' amounts (closing − opening). */
  credits: number;
  debits: number;
  movements: Movement[];
  count: number;
  page: number;
  limit: number;
}

/** Benin's day (UTC+1, no DST) `day` (YYYY-MM-DD) starts at this instant. */
export const beninDayStart = (day: string): string => `${day}T00:00:00+01:00`;

/** The day after `day` (YYYY-MM-DD). */
export function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The instants a statement of days `from`…`to` (both included, Benin's days) spans. */
export function statementSpan(from: string, to: string): { start: string; end: string } {
  return { start: beninDayStart(from), end: beninDayStart(nextDay(to)) };
}

/**
 * A statement's movements; a hold's movements carry the hold's code (wallet_hold_labels, the
 * contract's 'LIV-…') for `shownReference`.
 */
export const movementsSql = (walletId: string, start: string, end: string) => sql<MovementRow>`
  select h.position, h.recorded_at, h.type, h.reference, l.label as hold_code,
    h.amount::text, h.available_amount::text, h.balance::text, h.available_balance::text
  from wallet_balance_history h
  left join wallet_hold_labels l on h.type like 'Hold%' and l.hold_id = h.reference
  where h.wallet_id = ${walletId} and h.recorded_at >= ${start}::timestamptz
    and h.recorded_at < ${end}::timestamptz
  order by h.recorded_at, h.position`;

export interface MovementRow {
  position: string | number;
  recorded_at: Date;
  type: string;
  reference: string | null;
  hold_code: string | null;
  amount: string | number;
  available_amount: string | number;
  balance: string | number;
  available_balance: string | number;
}

/**
 * The reference a statement row shows, the transactions list's (kernel/references.ts): a
 * hold's movements are stored with the hold's id and shown as the hold's reference.
 */
export function shownReference(r: Pick<MovementRow, 'type' | 'reference' | 'hold_code'>) {
  if (r.reference === null || !r.type.startsWith('Hold')) return r.reference;
  return holdReference(r.reference, r.hold_code ?? undefined);
}

export const movementOf = (r: MovementRow): Movement => ({
  position: Number(r.position),
  recordedAt: r.recorded_at.toISOString(),
  type: r.type,
  reference: shownReference(r),
  amount: Number(r.amount),
  availableAmount: Number(r.available_amount),
  balance: Number(r.balance),
  availableBalance: Number(r.available_balance),
});

/**
 * A wallet's statement over Benin's days `from`…`to`: the balances when `from` began
 * (opening), its events during those days (a page of them) and the balances when `to`
 * ended (closing). Opening + the movements' amounts = closing.
 */
export async function statementOf(
  db: HistoryDb,
  walletId: string,
  days: { from: string; to: string },
  page: { page: number; limit: number },
): Promise<Statement> {
  const { start, end } = statementSpan(days.from, days.to);
  const opening = await balanceAt(db, walletId, start, { strict: true });
  const closing = await balanceAt(db, walletId, end, { strict: true });
  const totals = await db
    .selectFrom('wallet_balance_history')
    .select([
      sql<string>`count(*)::text`.as('count'),
      sql<string>`coalesce(sum(amount) filter (where amount > 0), 0)::text`.as('credits'),
      sql<string>`coalesce(sum(amount) filter (where amount < 0), 0)::text`.as('debits'),
    ])
    .where('wallet_id', '=', walletId)
    .where('recorded_at', '>=', sql<Date>`${start}::timestamptz`)
    .where('recorded_at', '<', sql<Date>`${end}::timestamptz`)
    .executeTakeFirstOrThrow();
  const { rows } = await sql<MovementRow>`${movementsSql(walletId, start, end)}
    limit ${page.limit} offset ${(page.page - 1) * page.limit}`.execute(db);
  return {
    walletId,
    from: days.from,
    to: days.to,
    opening: { balance: opening.balance, availableBalance: opening.availableBalance },
    closing: { balance: closing.balance, availableBalance: closing.availableBalance },
    credits: Number(totals.credits),
    debits: Number(totals.debits),
    movements: rows.map(movementOf),
    count: Number(totals.count),
    page: page.page,
    limit: page.limit,
  };
}

/**
 * A wallet's last `limit` movements of its balance (holds, which move only the available
 * balance, left out), newest first.
 */
export async function recentMovements(
  db: HistoryDb,
  walletId: string,
  limit: number,
): Promise<Movement[]> {
  const { rows } = await sql<MovementRow>`
    select h.position, h.recorded_at, h.type, h.reference, l.label as hold_code,
      h.amount::text, h.available_amount::text, h.balance::text, h.available_balance::text
    from wallet_balance_history h
    left join wallet_hold_labels l on h.type like 'Hold%' and l.hold_id = h.reference
    where h.wallet_id = ${walletId} and h.amount <> 0
    order by h.recorded_at desc, h.position desc
    limit ${limit}`.execute(db);
  return rows.map(movementOf);
}
