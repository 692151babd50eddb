import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { EventStore, type EventStoreTables } from '@filiere/event-store';
import { isAppError, narrowDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catchUp, checkProjector, rebuildProjector } from '@filiere/projections';
import {
  captureHold,
  evolveWallet,
  initialWalletState,
  placeHold,
  releaseHold,
  requestWithdrawal,
  transfer,
  walletStreamId,
  type Actor,
  type Decision,
  type WalletEvent,
} from '../domain/index.js';
import { RecordingLedger, walletCatalogue, walletDecoder } from '../read-model/test-support.js';
import { balanceAt, statementOf } from './point-in-time.js';
import { balanceHistoryProjector } from './projector.js';
import type { WalletHistoryTables } from './tables.js';
import type { Database } from '../../database.js';

const t = useTestDatabase<Database>();
const WALLETS = 4;
const wallet = fc.nat({ max: WALLETS - 1 });
const amount = fc.integer({ min: 1, max: 50_000 });
const command = fc.oneof(
  fc.record({ kind: fc.constant('supply' as const), wallet, amount }),
  fc.record({ kind: fc.constant('transfer' as const), from: wallet, to: wallet, amount }),
  fc.record({ kind: fc.constant('withdraw' as const), wallet, amount }),
  fc.record({ kind: fc.constant('hold' as const), wallet, amount }),
  fc.record({ kind: fc.constant('release' as const), pick: fc.nat({ max: 20 }) }),
  fc.record({ kind: fc.constant('capture' as const), pick: fc.nat({ max: 20 }), to: wallet }),
);
/** After each command: how many decisions go into one group-committed transaction. */
const scenario = fc.record({
  commands: fc.array(command, { minLength: 5, maxLength: 40 }),
  /** Sizes of the group commits the decisions are appended in (cycled). */
  groups: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 6 }),
  /** Project after these group commits (the projector resumes from its rows). */
  projectEvery: fc.integer({ min: 1, max: 4 }),
  /** Random instants, as fractions of the scenario's span (and a little around it). */
  fractions: fc.array(fc.double({ min: -0.2, max: 1.2, noNaN: true }), { maxLength: 8 }),
});

let run = 0;

/** An instant PostgreSQL prints as ISO 8601 with microseconds, in UTC. */
const isoSql = (expr: ReturnType<typeof sql>) =>
  sql<string>`to_char((${expr}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The fold the answer must equal: the wallet's events recorded at or before `at`, in order. */
async function foldAt(walletId: string, at: string) {
  const { rows } = await sql<{ type: string; data: unknown; position: string }>`
    select type, data, position::text from events
    where stream_id = ${walletStreamId(walletId)} and recorded_at <= ${at}::timestamptz
    order by version`.execute(t.db);
  const state = rows
    .map((r) => ({ type: r.type, data: r.data }) as WalletEvent)
    .reduce(evolveWallet, initialWalletState());
  return {
    balance: state.balance,
    availableBalance: state.availableBalance,
    position: rows.length ? Number(rows.at(-1)!.position) : null,
  };
}

describe('point-in-time balances (fast-check, real PostgreSQL)', () => {
  it('the balance at any instant equals the fold of the wallet’s events recorded by then — inside a group commit and before the wallet existed included', async () => {
    const store = new EventStore(t.db, walletCatalogue);
    const history = narrowDb<WalletHistoryTables>()(t.db);
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ commands, groups, projectEvery, fractions }) => {
        const prefix = `p${++run}-`;
        const [{ before }] = (
          await sql<{ before: string }>`select ${isoSql(sql`clock_timestamp()`)} as before`.execute(
            t.db,
          )
        ).rows as [{ before: string }];
        const ledger = new RecordingLedger();
        const ids = Array.from({ length: WALLETS }, (_, i) => `${prefix}w${i}`);
        const actors: Actor[] = ids.map((w, i) => ledger.open(w, `${prefix}u${i}`));
        const holds: { walletId: string; holdId: string }[] = [];
        let seq = 0;
        const tryApply = <R>(decide: () => Decision<R>): R | undefined => {
          try {
            return ledger.apply(decide());
          } catch (error) {
            if (!isAppError(error)) throw error;
            return undefined;
          }
        };
        for (const c of commands) {
          const id = `${prefix}${c.kind}-${++seq}`;
          switch (c.kind) {
            case 'supply':
              ledger.fund(actors[c.wallet]!, c.amount, id);
              break;
            case 'transfer':
              tryApply(() =>
                transfer(
                  { source: ledger.wallet(ids[c.from]!), destination: ledger.wallet(ids[c.to]!) },
                  {
                    reference: id,
                    sourceWalletId: ids[c.from]!,
                    destinationWalletId: ids[c.to]!,
                    amount: c.amount,
                    reason: 'Paiement',
                  },
                  actors[c.from]!,
                  {
                    recipient: {
                      userId: actors[c.to]!.userId,
                      role: 'ROLE_INDUSTRIAL',
                      clusterId: 'c1',
                      status: 'ACTIVE',
                    },
                  },
                ),
              );
              break;
            case 'withdraw':
              tryApply(() =>
                requestWithdrawal(
                  { wallet: ledger.wallet(ids[c.wallet]!), withdrawal: ledger.withdrawal(id) },
                  {
                    withdrawalId: id,
                    walletId: ids[c.wallet]!,
                    method: 'MOBILE_MONEY',
                    amount: c.amount,
                  },
                  actors[c.wallet]!,
                  { destination: '+2290197000000' },
                ),
              );
              break;
            case 'hold':
              if (
                tryApply(() =>
                  placeHold(ledger.wallet(ids[c.wallet]!), {
                    holdId: id,
                    amount: c.amount,
                    purpose: 'Contrat',
                  }),
                )
              ) {
                holds.push({ walletId: ids[c.wallet]!, holdId: id });
              }
              break;
            case 'release':
            case 'capture': {
              const hold = holds[c.pick % Math.max(1, holds.length)];
              if (!hold) break;
              const state = ledger.wallet(hold.walletId);
              if (c.kind === 'release') tryApply(() => releaseHold(state, { holdId: hold.holdId }));
              else {
                const to = ids[c.to]!;
                const remaining = state.holds.get(hold.holdId)?.remaining ?? 0;
                tryApply(() =>
                  captureHold(
                    { wallet: state, destinations: { [to]: ledger.wallet(to) } },
                    { holdId: hold.holdId, payments: [{ walletId: to, amount: remaining }] },
                  ),
                );
              }
              break;
            }
          }
        }
        // Group commits: several decisions in one transaction share its `recorded_at`.
        const decisions = ledger.decisions.splice(0);
        let g = 0;
        let commits = 0;
        while (decisions.length) {
          const batch = decisions.splice(0, groups[g++ % groups.length]!);
          await t.db.transaction().execute(async (trx) => {
            const inTrx = new EventStore(
              trx as unknown as Kysely<EventStoreTables>,
              walletCatalogue,
            );
            for (const writes of batch) {
              await inTrx.append(
                writes.map((w) => ({
                  streamId: w.streamId,
                  expectedVersion: 'any' as const,
                  events: w.events,
                })),
              );
            }
          });
          if (++commits % projectEvery === 0) {
            await catchUp(t.db, balanceHistoryProjector, { decode: walletDecoder });
          }
        }
        await catchUp(t.db, balanceHistoryProjector, { decode: walletDecoder });
        void store;

        // Instants: before anything, every recorded_at of these wallets' events (a group
        // commit's shared instant), one microsecond before and after each, and random ones.
        const streams = ids.map(walletStreamId);
        const { rows: stamps } = await sql<{ at: string; minus: string; plus: string }>`
          select distinct ${isoSql(sql`recorded_at`)} as at,
            ${isoSql(sql`recorded_at - interval '1 microsecond'`)} as minus,
            ${isoSql(sql`recorded_at + interval '1 microsecond'`)} as plus
          from events where stream_id in (${sql.join(streams)})`.execute(t.db);
        const { rows: span } = await sql<{ lo: number; hi: number }>`
          select extract(epoch from min(recorded_at))::float8 as lo,
            extract(epoch from max(recorded_at))::float8 as hi
          from events where stream_id in (${sql.join(streams)})`.execute(t.db);
        const { lo, hi } = span[0]!;
        const random = fractions.map((f) =>
          new Date((Number(lo) + f * (Number(hi) - Number(lo))) * 1000).toISOString(),
        );
        const instants = [before, ...stamps.flatMap((s) => [s.at, s.minus, s.plus]), ...random];
        // Several events share one recorded_at in at least one commit of most runs.
        for (const walletId of ids) {
          for (const at of instants) {
            const answer = await balanceAt(history, walletId, at);
            expect(
              {
                balance: answer.balance,
                available: answer.availableBalance,
                position: answer.position,
              },
              `${walletId} at ${at}`,
            ).toEqual(
              await foldAt(walletId, at).then((f) => ({
                balance: f.balance,
                available: f.availableBalance,
                position: f.position,
              })),
            );
            checked++;
          }
          const before0 = await balanceAt(history, walletId, before);
          expect(before0).toMatchObject({ balance: 0, availableBalance: 0, position: null });
        }
        // A statement over the scenario's days: opening + Σ movements = closing.
        const day = new Date(Number(hi) * 1000 + 3_600_000).toISOString().slice(0, 10);
        for (const walletId of ids) {
          const s = await statementOf(
            history,
            walletId,
            { from: day, to: day },
            { page: 1, limit: 200 },
          );
          const sum = s.movements.reduce((n, m) => n + m.amount, 0);
          expect(s.closing.balance - s.opening.balance).toBe(sum);
          expect(s.credits + s.debits).toBe(sum);
        }
      }),
      { numRuns: 15 },
    );
    expect(checked).toBeGreaterThan(100);
    // The projector rebuilds identically (ledger:check).
    const check = await checkProjector(t.db, balanceHistoryProjector, { decode: walletDecoder });
    expect(check.differences).toEqual([]);
    const live = await t.db
      .selectFrom('wallet_balance_history')
      .selectAll()
      .orderBy('position')
      .execute();
    await rebuildProjector(t.db, balanceHistoryProjector, { decode: walletDecoder, batchSize: 7 });
    expect(
      await t.db.selectFrom('wallet_balance_history').selectAll().orderBy('position').execute(),
    ).toEqual(live);
  }, 240_000);

  it('a group commit: every event of it has one recorded_at, and an instant equal to it sees them all', async () => {
    const ledger = new RecordingLedger();
    const a = ledger.open('g-a', 'g-ua');
    ledger.open('g-b', 'g-ub');
    ledger.fund(a, 1000, 'g-s1');
    ledger.fund(a, 500, 'g-s2');
    await t.db.transaction().execute(async (trx) => {
      const inTrx = new EventStore(trx as unknown as Kysely<EventStoreTables>, walletCatalogue);
      for (const writes of ledger.decisions.splice(0)) {
        await inTrx.append(
          writes.map((w) => ({
            streamId: w.streamId,
            expectedVersion: 'any' as const,
            events: w.events,
          })),
        );
      }
    });
    await catchUp(t.db, balanceHistoryProjector, { decode: walletDecoder });
    const { rows } = await sql<{ n: number; at: string }>`
      select count(distinct recorded_at)::integer as n,
        ${isoSql(sql`min(recorded_at)`)} as at
      from events where stream_id = ${walletStreamId('g-a')}`.execute(t.db);
    expect(rows[0]!.n).toBe(1);
    const history = narrowDb<WalletHistoryTables>()(t.db);
    expect(await balanceAt(history, 'g-a', rows[0]!.at)).toMatchObject({ balance: 1500 });
    expect(await balanceAt(history, 'g-a', rows[0]!.at, { strict: true })).toMatchObject({
      balance: 0,
      position: null,
    });
  });
});
