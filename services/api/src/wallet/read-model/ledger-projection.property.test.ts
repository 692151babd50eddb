import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventStore, readAll } from '@filiere/event-store';
import {
  captureHold,
  completeWithdrawal,
  evolveWallet,
  failWithdrawal,
  finance,
  initialWalletState,
  initiateSupply,
  placeHold,
  postingsOf,
  releaseHold,
  requestSystemPayout,
  requestWithdrawal,
  settleHold,
  transfer,
  verifySupply,
  walletStreamId,
  type Actor,
  type Decision,
  type WalletEvent,
} from '../domain/index.js';
import { isAppError } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { checkProjector, rebuildProjector } from '@filiere/projections';
import { walletProjectors } from './index.js';
import {
  projectWallet,
  RecordingLedger,
  testBank,
  walletCatalogue,
  walletDecoder,
} from './test-support.js';
import type { Database } from '../../database.js';

const t = useTestDatabase<Database>();
const WALLETS = 6;
const pick = fc.nat({ max: 40 });
const wallet = fc.nat({ max: WALLETS - 1 });
const amount = fc.oneof(
  { weight: 9, arbitrary: fc.integer({ min: 1, max: 20_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -5) },
);
const command = fc.oneof(
  fc.record({ kind: fc.constant('supply' as const), wallet, amount, ok: fc.boolean() }),
  fc.record({ kind: fc.constant('bankSupply' as const), wallet, amount }),
  fc.record({ kind: fc.constant('transfer' as const), from: wallet, to: wallet, amount }),
  fc.record({ kind: fc.constant('finance' as const), from: wallet, to: wallet, amount }),
  fc.record({ kind: fc.constant('withdraw' as const), wallet, amount }),
  fc.record({ kind: fc.constant('settle' as const), pick, success: fc.boolean() }),
  fc.record({ kind: fc.constant('hold' as const), wallet, amount }),
  fc.record({ kind: fc.constant('release' as const), pick }),
  fc.record({ kind: fc.constant('capture' as const), pick, to: wallet }),
  fc.record({
    kind: fc.constant('settleHold' as const),
    pick,
    payments: fc.array(fc.record({ to: wallet, amount: fc.integer({ min: 1, max: 6000 }) }), {
      maxLength: 3,
    }),
    closeHold: fc.boolean(),
    allowExcess: fc.boolean(),
    settlement: fc.constantFrom('s1', 's2', 's3'),
  }),
  fc.record({ kind: fc.constant('systemPayout' as const), wallet, amount }),
  fc.record({ kind: fc.constant('project' as const) }),
);
type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

let run = 0;

/** One run: fresh wallets, commands decided in memory, appended to the real store, projected. */
class Scenario {
  readonly ledger = new RecordingLedger();
  readonly ids: string[];
  readonly actors: Actor[];
  readonly withdrawals: string[] = [];
  readonly holds: { walletId: string; holdId: string }[] = [];
  private seq = 0;

  constructor(
    private readonly store: EventStore,
    private readonly prefix: string,
  ) {
    this.ids = Array.from({ length: WALLETS }, (_, i) => `${prefix}w${i}`);
    this.actors = this.ids.map((w, i) =>
      this.ledger.open(w, `${prefix}u${i}`, i % 2 ? 'ROLE_INDUSTRIAL' : 'ROLE_ADMIN', 'c1'),
    );
  }

  private tryApply<R>(decide: () => Decision<R>): R | undefined {
    try {
      return this.ledger.apply(decide());
    } catch (error) {
      if (!isAppError(error)) throw error;
      return undefined;
    }
  }

  async step(c: Command): Promise<void> {
    const l = this.ledger;
    const id = `${this.prefix}${c.kind}-${++this.seq}`;
    const recipient = (i: number) => ({
      userId: this.actors[i]!.userId,
      role: i % 2 ? 'ROLE_INDUSTRIAL' : 'ROLE_ADMIN',
      clusterId: 'c1',
      status: 'ACTIVE' as const,
    });
    switch (c.kind) {
      case 'supply': {
        const w = this.ids[c.wallet]!;
        const actor = this.actors[c.wallet]!;
        const ok = this.tryApply(() =>
          initiateSupply(
            { wallet: l.wallet(w), supply: l.supply(id) },
            { reference: id, walletId: w, method: 'MOBILE_MONEY', amount: c.amount },
            actor,
            { bank: testBank },
          ),
        );
        if (!ok) return;
        this.tryApply(() =>
          verifySupply({ supply: l.supply(id), wallet: l.wallet(w) }, { reference: id }, actor, {
            verification: {
              status: c.ok ? 'SUCCESS' : 'FAILED',
              amount: c.amount,
              reference: id,
              transactionId: `tx-${id}`,
            },
          }),
        );
        return;
      }
      case 'bankSupply':
        if (c.amount > 0) l.fund(this.actors[c.wallet]!, c.amount, id);
        return;
      case 'transfer':
      case 'finance': {
        const states = {
          source: l.wallet(this.ids[c.from]!),
          destination: l.wallet(this.ids[c.to]!),
        };
        const cmd = {
          reference: id,
          sourceWalletId: this.ids[c.from]!,
          destinationWalletId: this.ids[c.to]!,
          amount: c.amount,
        };
        const actor = this.actors[c.from]!;
        this.tryApply(() =>
          c.kind === 'transfer'
            ? transfer(states, { ...cmd, reason: 'Paiement' }, actor, {
                recipient: recipient(c.to),
              })
            : finance(states, cmd, actor, { recipient: recipient(c.to) }),
        );
        return;
      }
      case 'withdraw': {
        const w = this.ids[c.wallet]!;
        const ok = this.tryApply(() =>
          requestWithdrawal(
            { wallet: l.wallet(w), withdrawal: l.withdrawal(id) },
            { withdrawalId: id, walletId: w, method: 'MOBILE_MONEY', amount: c.amount },
            this.actors[c.wallet]!,
            { destination: '+2290197000000' },
          ),
        );
        if (ok) this.withdrawals.push(id);
        return;
      }
      case 'settle': {
        const wid = this.withdrawals[c.pick % Math.max(1, this.withdrawals.length)];
        if (!wid) return;
        const w = l.withdrawal(wid);
        this.tryApply(() =>
          c.success
            ? completeWithdrawal(w, { withdrawalId: wid }, { bankCode: testBank.code })
            : failWithdrawal(
                { withdrawal: w, wallet: l.wallet(w.walletId!) },
                { withdrawalId: wid },
              ),
        );
        return;
      }
      case 'hold': {
        const w = this.ids[c.wallet]!;
        const ok = this.tryApply(() =>
          placeHold(l.wallet(w), { holdId: id, amount: c.amount, purpose: 'Contrat' }),
        );
        if (ok) this.holds.push({ walletId: w, holdId: id });
        return;
      }
      case 'release':
      case 'capture': {
        const hold = this.holds[c.pick % Math.max(1, this.holds.length)];
        if (!hold) return;
        const state = l.wallet(hold.walletId);
        if (c.kind === 'release') {
          this.tryApply(() => releaseHold(state, { holdId: hold.holdId }));
        } else {
          const to = this.ids[c.to]!;
          const amount = state.holds.get(hold.holdId)?.remaining ?? 0;
          this.tryApply(() =>
            captureHold(
              { wallet: state, destinations: { [to]: l.wallet(to) } },
              { holdId: hold.holdId, payments: [{ walletId: to, amount }] },
            ),
          );
        }
        return;
      }
      case 'settleHold': {
        const hold = this.holds[c.pick % Math.max(1, this.holds.length)];
        if (!hold) return;
        const payments = c.payments.map((p) => ({ walletId: this.ids[p.to]!, amount: p.amount }));
        this.tryApply(() =>
          settleHold(
            {
              wallet: l.wallet(hold.walletId),
              destinations: Object.fromEntries(
                payments.map((p) => [p.walletId, l.wallet(p.walletId)]),
              ),
            },
            {
              holdId: hold.holdId,
              settlementId: c.settlement,
              payments,
              closeHold: c.closeHold,
              allowExcess: c.allowExcess,
            },
          ),
        );
        return;
      }
      case 'systemPayout': {
        const w = this.ids[c.wallet]!;
        const ok = this.tryApply(() =>
          requestSystemPayout(
            { wallet: l.wallet(w), withdrawal: l.withdrawal(id) },
            { withdrawalId: id, walletId: w, amount: c.amount, reason: 'Contrat' },
            { destination: '+2290197000000' },
          ),
        );
        if (ok) this.withdrawals.push(id);
        return;
      }
      case 'project':
        await this.ledger.flush(this.store);
        await projectWallet(t.db);
        return;
    }
  }
}

describe('wallet projections over random command sequences (fast-check)', () => {
  it('projected balances equal the fold of each wallet’s events, Σ accounts = 0, nothing below 0, rebuild = live', async () => {
    const store = new EventStore(t.db, walletCatalogue);
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 10, maxLength: 80 }), async (commands) => {
        const scenario = new Scenario(store, `r${++run}-`);
        for (const c of commands) {
          await scenario.step(c);
          const balances = await t.db
            .selectFrom('wallet_balances')
            .select(['balance', 'available_balance'])
            .where('wallet_id', 'in', scenario.ids)
            .execute();
          for (const b of balances) {
            expect(b.balance).toBeGreaterThanOrEqual(0);
            expect(b.available_balance).toBeGreaterThanOrEqual(0);
          }
        }
        await scenario.ledger.flush(store);
        await projectWallet(t.db);

        for (const walletId of scenario.ids) {
          const stored = await store.readStream(walletStreamId(walletId));
          const fold = stored
            .map((e) => ({ type: e.type, data: e.data }) as WalletEvent)
            .reduce(evolveWallet, initialWalletState());
          const row = await t.db
            .selectFrom('wallet_balances')
            .selectAll()
            .where('wallet_id', '=', walletId)
            .executeTakeFirstOrThrow();
          expect({
            balance: row.balance,
            held: row.held,
            available: row.available_balance,
          }).toEqual({
            balance: fold.balance,
            held: fold.held,
            available: fold.availableBalance,
          });
          expect(fold.balance).toBe(scenario.ledger.wallet(walletId).balance);
          const txCount = await t.db
            .selectFrom('wallet_monthly_counts')
            .select((eb) => eb.fn.sum<number>('count').as('n'))
            .where('wallet_id', '=', walletId)
            .executeTakeFirst();
          const rows = await t.db
            .selectFrom('wallet_transactions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('wallet_id', '=', walletId)
            .executeTakeFirstOrThrow();
          expect(Number(txCount?.n ?? 0)).toBe(Number(rows.n));
        }
      }),
      { numRuns: 20 },
    );

    // Σ of every posting of the whole log is 0; the wallets' projected total is what the
    // system accounts owe (their postings, negated).
    const events = await readAll(t.db, { after: 0, limit: 1_000_000, catalogue: walletCatalogue });
    let total = 0;
    let system = 0;
    for (const e of events) {
      for (const p of postingsOf({ type: e.type, data: e.data } as WalletEvent)) {
        total += p.amount;
        if (!p.account.startsWith('wallet:')) system += p.amount;
      }
    }
    expect(total).toBe(0);
    expect(
      events.filter((e) => postingsOf(e as unknown as WalletEvent).length).length,
    ).toBeGreaterThan(5);
    const sum = await t.db
      .selectFrom('wallet_balances')
      .select((eb) => eb.fn.sum<number>('balance').as('s'))
      .executeTakeFirstOrThrow();
    expect(Number(sum.s ?? 0)).toBe(-system);

    for (const projector of walletProjectors) {
      const check = await checkProjector(t.db, projector, { decode: walletDecoder });
      expect(check.differences, projector.name).toEqual([]);
    }
    const before = await t.db.selectFrom('wallet_transactions').selectAll().orderBy('id').execute();
    await rebuildProjector(t.db, walletProjectors[1]!, { decode: walletDecoder, batchSize: 37 });
    expect(
      await t.db.selectFrom('wallet_transactions').selectAll().orderBy('id').execute(),
    ).toEqual(before);
  }, 240_000);
});
