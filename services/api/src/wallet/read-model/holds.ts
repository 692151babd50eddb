import { sql } from 'kysely';
import { defineProjector, instantArray, intArray, textArray } from '@filiere/projections';
import type { WalletReadTables } from '../tables.js';
import { asWalletEvent } from './events.js';
import { plus, type Exact } from './exact.js';

/** A hold's change in the batch (exact: a batch of large holds passes 2^53). */
interface HoldDelta {
  holdId: string;
  walletId: string;
  held: Exact;
  purpose: string | null;
  placedAt: Date | null;
}

type HoldTables = Pick<WalletReadTables, 'wallet_holds'>;

/**
 * `wallet_holds`: what each hold of a wallet still keeps (its HoldPlaced amount, less what
 * HoldReleased, HoldCaptured and HoldSettled took out of it — the same amounts as the
 * balances' `held`), with the purpose and instant of its HoldPlaced, so that a wallet's held
 * money can be broken down by what holds it. One upsert a batch. It pushes nothing: every
 * change of a hold changes the wallet's `held`, which wallet-balances pushes (`wallet.updated`).
 */
export const holdsProjector = defineProjector<HoldTables>({
  name: 'wallet-holds',
  eventTypes: ['HoldPlaced', 'HoldReleased', 'HoldCaptured', 'HoldSettled'],
  tables: ['wallet_holds'],
  async apply(trx, events) {
    const deltas = new Map<string, HoldDelta>();
    for (const recorded of events) {
      const event = asWalletEvent(recorded);
      if (
        event.type !== 'HoldPlaced' &&
        event.type !== 'HoldReleased' &&
        event.type !== 'HoldCaptured' &&
        event.type !== 'HoldSettled'
      ) {
        continue;
      }
      const key = `${event.data.walletId}\u0000${event.data.holdId}`;
      let d = deltas.get(key);
      if (!d) {
        d = {
          holdId: event.data.holdId,
          walletId: event.data.walletId,
          held: 0,
          purpose: null,
          placedAt: null,
        };
        deltas.set(key, d);
      }
      switch (event.type) {
        case 'HoldPlaced':
          d.held = plus(d.held, event.data.amount);
          d.purpose = event.data.purpose;
          d.placedAt = recorded.recordedAt;
          break;
        case 'HoldReleased':
        case 'HoldCaptured':
          d.held = plus(d.held, -event.data.amount);
          break;
        case 'HoldSettled':
          d.held = plus(d.held, -event.data.captured);
          d.held = plus(d.held, -event.data.released);
          break;
      }
    }
    if (!deltas.size) return;
    const rows = [...deltas.values()];
    await trx
      .insertInto('wallet_holds')
      .columns(['hold_id', 'wallet_id', 'held', 'purpose', 'placed_at'])
      .expression(
        sql<never>`select * from unnest(${textArray(rows.map((d) => d.holdId))}::text[],
          ${textArray(rows.map((d) => d.walletId))}::text[],
          ${intArray(rows.map((d) => d.held))}::bigint[],
          ${textArray(rows.map((d) => d.purpose))}::text[],
          ${instantArray(rows.map((d) => d.placedAt))}::timestamptz[])`,
      )
      .onConflict((oc) =>
        oc.columns(['hold_id', 'wallet_id']).doUpdateSet({
          held: sql`${sql.ref('wallet_holds.held')} + excluded.held`,
          purpose: sql`coalesce(excluded.purpose, ${sql.ref('wallet_holds.purpose')})`,
          placed_at: sql`coalesce(excluded.placed_at, ${sql.ref('wallet_holds.placed_at')})`,
        }),
      )
      .execute();
  },
});
