import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { iso, likePattern, pageOf, type ListQuery } from './schemas.js';
import type { WalletDb } from '../../tables.js';
import { identityUsers } from '../../../identity/index.js';

export interface TransactionFilter extends ListQuery {
  status?: string | undefined;
  /** IN (received) or OUT (paid): 'Paiements effectués' lists the OUT rows. */
  direction?: 'IN' | 'OUT' | undefined;
  /** Only this wallet's rows; all wallets when absent (admins). */
  walletId?: string | undefined;
}

const name = (alias: string) =>
  sql<string>`(${sql.ref(`${alias}.firstname`)} || ' ' || ${sql.ref(`${alias}.lastname`)})`;

/** Transaction rows joined with the current names of both sides (names live outside the log). */
function base(db: Kysely<WalletDb>, f: TransactionFilter): SelectQueryBuilder<any, any, object> {
  let q = db
    .selectFrom('wallet_transactions as t')
    .leftJoin(identityUsers().as('su'), (j) =>
      j.on(sql`su.id::text`, '=', sql.ref('t.source_user_id')),
    )
    .leftJoin(identityUsers().as('du'), (j) =>
      j.on(sql`du.id::text`, '=', sql.ref('t.destination_user_id')),
    );
  if (f.walletId !== undefined) q = q.where('t.wallet_id', '=', f.walletId);
  if (f.status) q = q.where('t.status', '=', f.status);
  if (f.direction) q = q.where('t.direction', '=', f.direction);
  if (f.q) {
    const like = likePattern(f.q);
    q = q.where((eb) =>
      eb.or([
        eb('t.reference', 'ilike', like),
        eb('t.reason', 'ilike', like),
        eb(name('su'), 'ilike', like),
        eb(name('du'), 'ilike', like),
      ]),
    );
  }
  return q;
}

export type TransactionDto = ReturnType<typeof toDto>;

/** One side's user as it is now (names, NIP and phone live in `users`, outside the log). */
function person(r: Record<string, any>, alias: 'su' | 'du') {
  const id = r[`${alias}_id`];
  if (!id) return null;
  return {
    id: String(id),
    firstname: String(r[`${alias}_firstname`]),
    lastname: String(r[`${alias}_lastname`]),
    nip: (r[`${alias}_nip`] as string | null) ?? null,
    phone: (r[`${alias}_phone`] as string | null) ?? null,
  };
}

function toDto(r: Record<string, any>) {
  return {
    id: String(r.id),
    reference: r.reference as string,
    operationType: r.operation_type as string,
    direction: r.direction as string,
    amount: Number(r.amount),
    status: r.status as string,
    reason: (r.reason as string | null) ?? null,
    paymentMeans: (r.payment_means as string | null) ?? null,
    walletId: r.wallet_id as string,
    createdAt: iso(r.created_at)!,
    source: {
      walletId: (r.source_wallet_id as string | null) ?? null,
      user: person(r, 'su'),
    },
    destination: {
      walletId: (r.destination_wallet_id as string | null) ?? null,
      user: person(r, 'du'),
      phone: (r.du_phone as string | null) ?? null,
      payout: (r.destination as string | null) ?? null,
    },
  };
}

const columns = [
  't.id',
  't.reference',
  't.operation_type',
  't.direction',
  't.amount',
  't.status',
  't.reason',
  't.payment_means',
  't.wallet_id',
  't.created_at',
  't.source_wallet_id',
  't.destination_wallet_id',
  't.destination',
  'su.id as su_id',
  'su.firstname as su_firstname',
  'su.lastname as su_lastname',
  'su.nip as su_nip',
  'su.phone as su_phone',
  'du.id as du_id',
  'du.firstname as du_firstname',
  'du.lastname as du_lastname',
  'du.nip as du_nip',
  'du.phone as du_phone',
] as const;

/** Names of both sides joined to already-selected rows `t`. */
function withNames(db: Kysely<WalletDb>, rows: SelectQueryBuilder<any, any, any>) {
  return db
    .selectFrom(rows.as('t'))
    .leftJoin(identityUsers().as('su'), (j) =>
      j.on(sql`su.id::text`, '=', sql.ref('t.source_user_id')),
    )
    .leftJoin(identityUsers().as('du'), (j) =>
      j.on(sql`du.id::text`, '=', sql.ref('t.destination_user_id')),
    )
    .select([...columns]);
}

export async function listTransactions(db: Kysely<WalletDb>, f: TransactionFilter) {
  const { offset, limit } = pageOf(f);
  if (!f.q) {
    // Without a name search the page is cut first, then names are joined to its rows only.
    let filtered = db.selectFrom('wallet_transactions');
    if (f.walletId !== undefined) filtered = filtered.where('wallet_id', '=', f.walletId);
    if (f.status) filtered = filtered.where('status', '=', f.status);
    if (f.direction) filtered = filtered.where('direction', '=', f.direction);
    let page = filtered.selectAll().orderBy('id', 'desc').offset(offset);
    if (limit !== undefined) page = page.limit(limit);
    const [data, total] = await Promise.all([
      withNames(db, page).orderBy('t.id', 'desc').execute(),
      filtered.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { data: data.map(toDto), count: Number((total as { n: string }).n) };
  }
  let rows = base(db, f)
    .select([...columns])
    .orderBy('t.id', 'desc')
    .offset(offset);
  if (limit !== undefined) rows = rows.limit(limit);
  const [data, total] = await Promise.all([
    rows.execute(),
    base(db, f)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { data: data.map(toDto), count: Number((total as { n: string }).n) };
}

export async function findTransaction(db: Kysely<WalletDb>, id: number) {
  const row = await base(db, { page: 1, limit: 1 })
    .select([...columns])
    .where('t.id', '=', id)
    .executeTakeFirst();
  return row ? toDto(row) : undefined;
}

/** Where a withdrawal was paid out (its DEBIT row's destination): a refund's detail names it. */
export async function withdrawalPayout(
  db: Kysely<WalletDb>,
  walletId: string,
  withdrawalId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('wallet_transactions')
    .select('destination')
    .where('key', '=', `withdrawal:${withdrawalId}`)
    .where('wallet_id', '=', walletId)
    .executeTakeFirst();
  return (row?.destination as string | null | undefined) ?? null;
}

/**
 * Rows of one wallet by ascending id after `afterId` (keyset pages for the export). The page
 * is cut before the name joins, so each page costs its own rows, not the rest of the wallet.
 */
export async function transactionsPage(
  db: Kysely<WalletDb>,
  walletId: string,
  afterId: number,
  size: number,
) {
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('wallet_transactions')
        .selectAll()
        .where('wallet_id', '=', walletId)
        .where('id', '>', afterId)
        .orderBy('id', 'asc')
        .limit(size)
        .as('t'),
    )
    .leftJoin(identityUsers().as('su'), (j) =>
      j.on(sql`su.id::text`, '=', sql.ref('t.source_user_id')),
    )
    .leftJoin(identityUsers().as('du'), (j) =>
      j.on(sql`du.id::text`, '=', sql.ref('t.destination_user_id')),
    )
    .select([...columns])
    .orderBy('t.id', 'asc')
    .execute();
  return rows.map(toDto);
}

export async function countWalletTransactions(db: Kysely<WalletDb>, walletId: string) {
  const row = await db
    .selectFrom('wallet_transactions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('wallet_id', '=', walletId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
