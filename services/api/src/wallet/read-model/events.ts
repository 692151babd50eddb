import type { Kysely } from 'kysely';
import { narrowDb } from '@filiere/platform';
import type { RecordedEvent } from '@filiere/projections';
import type { WalletEvent } from '../domain/index.js';
import type { WalletReadTables } from '../tables.js';

/**
 * The projectors' owners tables (same columns): each projector that needs owners has its own
 * and passes its name; its typed tables include both (it touches only its own).
 */
export type OwnersTables = Pick<
  WalletReadTables,
  'wallet_transaction_owners' | 'wallet_reporting_owners'
>;

/**
 * A recorded event seen as the wallet domain's union (its data was validated on append and
 * decoded through the catalogue): the same object, no copy per event and projector. Read it
 * only: events may be shared by every projector of a batch.
 */
export const asWalletEvent = (e: RecordedEvent): WalletEvent => e as unknown as WalletEvent;

/** `wallet-<id>` → id; undefined for the supply and withdrawal streams. */
export function walletIdOfStream(streamId: string): string | undefined {
  return streamId.startsWith('wallet-') ? streamId.slice('wallet-'.length) : undefined;
}

/** Year and month (1–12) of an instant in Benin's time (Africa/Porto-Novo: UTC+1, no DST). */
export function beninMonth(at: Date): { year: number; month: number } {
  const local = new Date(at.getTime() + 3_600_000);
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1 };
}

/**
 * A projector's own copy of "which user owns which wallet" (from WalletOpened). Each
 * projector keeps its own so that a replay never reads another projector's tables.
 */
export async function recordOwners<DB extends OwnersTables>(
  trx: Kysely<DB>,
  table: keyof OwnersTables,
  events: RecordedEvent[],
): Promise<void> {
  const rows = events
    .filter((e) => e.type === 'WalletOpened')
    .map((e) => {
      const data = e.data as { walletId: string; ownerUserId: string };
      return { wallet_id: data.walletId, user_id: data.ownerUserId };
    });
  if (rows.length) {
    await narrowDb<OwnersTables>()(trx)
      .insertInto(table)
      .values(rows)
      .onConflict((oc) => oc.column('wallet_id').doNothing())
      .execute();
  }
}

export async function loadOwners<DB extends OwnersTables>(
  trx: Kysely<DB>,
  table: keyof OwnersTables,
  walletIds: Iterable<string>,
): Promise<Map<string, string>> {
  const ids = [...new Set(walletIds)];
  if (!ids.length) return new Map();
  const rows = await narrowDb<OwnersTables>()(trx)
    .selectFrom(table)
    .select(['wallet_id', 'user_id'])
    .where('wallet_id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.wallet_id, r.user_id]));
}

export const defined = <T>(values: Iterable<T | null | undefined>): T[] =>
  [...new Set(values)].filter((v): v is T => v !== null && v !== undefined);
