import { useTestDatabase } from '@filiere/platform/testing';
import type { KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BusinessRuleError, ConcurrencyError } from '../errors.js';
import { EventStore } from '../event-store.js';
import { readStream } from '../read.js';
import { accountType, Credited, Debited, testCatalogue, type Account } from '../test-fixtures.js';
import { verifyLog } from '../verify.js';
import { CommandPipeline } from './pipeline.js';
import type { Command } from './types.js';
import type { StreamState } from './state-cache.js';
import type { EventStoreTables } from '../schema/tables.js';

const database = useTestDatabase<EventStoreTables>();

function pipeline(options: ConstructorParameters<typeof CommandPipeline>[1] = {}) {
  return new CommandPipeline(
    new EventStore(database.db, testCatalogue),
    options,
  ).registerStreamType(accountType);
}

const credit = (streamId: string, amount: number, key?: string): Command<{ balance: number }> => ({
  idempotencyKey: key,
  streams: [streamId],
  decide: (states) => {
    const { state } = states[streamId] as StreamState<Account>;
    return {
      writes: [{ streamId, events: [Credited.create({ amount })] }],
      result: { balance: state.balance + amount },
    };
  },
});

const transfer = (from: string, to: string, amount: number): Command<{ left: number }> => ({
  streams: [from, to],
  decide: (states) => {
    const { state } = states[from] as StreamState<Account>;
    if (state.balance < amount) {
      throw new BusinessRuleError('Solde disponible insuffisant', {
        missing: amount - state.balance,
      });
    }
    return {
      writes: [
        { streamId: from, events: [Debited.create({ amount })] },
        { streamId: to, events: [Credited.create({ amount })] },
      ],
      result: { left: state.balance - amount },
    };
  },
});

describe('the command pipeline', () => {
  it('decides on loaded state and writes several streams atomically', async () => {
    const p = pipeline();
    await p.handle(credit('account-t1', 100));
    const outcome = await p.handle(transfer('account-t1', 'account-t2', 30));
    expect(outcome).toEqual({ result: { left: 70 }, positions: [2, 3] });
    await expect(p.handle(transfer('account-t1', 'account-t2', 100))).rejects.toMatchObject({
      statusCode: 422,
      data: { missing: 30 },
    });
    expect(
      (await readStream(database.db, 'account-t2', { catalogue: testCatalogue })).map(
        (e) => e.data,
      ),
    ).toEqual([{ amount: 30 }]);
    await p.close();
  });

  it('gathers concurrent commands in few transactions; each sees the earlier ones and fails alone', async () => {
    const p = pipeline({ batchMax: 64, batchWaitMs: 5 });
    await p.handle(credit('account-g1', 50));
    let commits = 0;
    p.store.onAppended(() => commits++);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, () => p.handle(transfer('account-g1', 'account-g2', 1))),
    );
    const fulfilled = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(fulfilled).toHaveLength(50);
    expect(refused).toHaveLength(50);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(BusinessRuleError);
      expect(r.reason.data).toEqual({ missing: 1 });
    }
    // The first 50 callers were served in order, each on the state the earlier ones left.
    expect(fulfilled.map((o) => o.value.result.left)).toEqual(
      Array.from({ length: 50 }, (_, i) => 49 - i),
    );
    expect(commits).toBeLessThanOrEqual(3);
    const events = await readStream(database.db, 'account-g1', { catalogue: testCatalogue });
    expect(events.map((e) => e.version)).toEqual(Array.from({ length: 51 }, (_, i) => i + 1));
    await p.close();
  });

  it('answers a repeated idempotency key with the first result, in the same batch or later', async () => {
    const p = pipeline({ batchWaitMs: 5 });
    const [a, b] = await Promise.all([
      p.handle(credit('account-i1', 10, 'pay-1')),
      p.handle(credit('account-i1', 10, 'pay-1')),
    ]);
    expect(a).toEqual(b);
    const later = await pipeline().handle(credit('account-i1', 10, 'pay-1'));
    expect(later).toEqual(a);
    expect(await readStream(database.db, 'account-i1', { catalogue: testCatalogue })).toHaveLength(
      1,
    );
    await p.close();
  });

  it('answers a key recorded before with its first result, the rest of its batch committing once', async () => {
    // A batch's first try does not read its keys: the append refuses the recorded one and
    // the batch is tried again after reading them, even with no conflict retries allowed.
    const first = await pipeline().handle(credit('account-k1', 10, 'repeat-1'));
    for (const options of [{ batchWaitMs: 20 }, { batchWaitMs: 20, maxRetries: 0 }]) {
      const p = pipeline(options);
      const [repeat, other] = await Promise.all([
        p.handle(credit('account-k1', 10, 'repeat-1')),
        p.handle(credit('account-k2', 7, `other-${options.maxRetries ?? 'default'}`)),
      ]);
      expect(repeat).toEqual(first);
      expect(other.result).toEqual({ balance: options.maxRetries === 0 ? 14 : 7 });
      await p.close();
    }
    expect(await readStream(database.db, 'account-k1', { catalogue: testCatalogue })).toHaveLength(
      1,
    );
    expect(await readStream(database.db, 'account-k2', { catalogue: testCatalogue })).toHaveLength(
      2,
    );
    expect(await verifyLog(database.db)).toMatchObject({ ok: true });
  });

  it('answers the repeat of a command that went through with its first result, though it would now be refused', async () => {
    const p = pipeline();
    await p.handle(credit('account-q1', 50));
    const pay = (): Command<{ left: number }> => ({
      ...transfer('account-q1', 'account-q2', 40),
      idempotencyKey: 'pay-q1',
    });
    const first = await p.handle(pay());
    expect(first.result).toEqual({ left: 10 });
    // 10 left: deciding it again would refuse it (422); the key says it was paid.
    expect(await p.handle(pay())).toEqual(first);
    expect(await pipeline().handle(pay())).toEqual(first);
    expect(await readStream(database.db, 'account-q2', { catalogue: testCatalogue })).toHaveLength(
      1,
    );
    await p.close();
  });

  it('fails a refusal with the database’s error when it cannot check the state was current', async () => {
    // The stream versions' query fails while `down` (PostgreSQL shutting down, say).
    let down = false;
    const failing: KyselyPlugin = {
      transformQuery: (args) => {
        if (down && JSON.stringify(args.node).includes('max(version)')) {
          throw new Error('the database system is shutting down');
        }
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const p1 = new CommandPipeline(
      new EventStore(database.db.withPlugin(failing), testCatalogue),
    ).registerStreamType(accountType);
    await p1.handle(credit('account-v1', 10)); // p1 caches a balance of 10
    await pipeline().handle(credit('account-v1', 100)); // another process: 110
    down = true;
    // Decided on the cached 10, the transfer is refused; that refusal may be false (it is):
    // it is not delivered, the command fails with the error the caller retries on.
    await expect(p1.handle(transfer('account-v1', 'account-v2', 50))).rejects.toThrow(
      'the database system is shutting down',
    );
    down = false;
    const retried = await p1.handle(transfer('account-v1', 'account-v2', 50));
    expect(retried.result).toEqual({ left: 60 });
    await p1.close();
  });

  it('refuses a command reading a stream of no registered category, alone', async () => {
    const p = pipeline({ batchWaitMs: 5 });
    const [bad, good] = await Promise.allSettled([
      p.handle({ streams: ['ghost-1'], decide: () => ({ writes: [], result: null }) }),
      p.handle(credit('account-c1', 5)),
    ]);
    expect(bad.status).toBe('rejected');
    expect(good).toMatchObject({ status: 'fulfilled', value: { result: { balance: 5 } } });
    await p.close();
  });

  it('reloads and retries when another process appended (stale cache), then gives up with 409', async () => {
    const p1 = pipeline();
    const p2 = pipeline();
    await p1.handle(credit('account-x1', 10)); // p1 caches version 1
    await p2.handle(credit('account-x1', 5)); // p2 loads version 1, appends version 2
    const retried = await p1.handle(credit('account-x1', 1));
    expect(retried.result).toEqual({ balance: 16 });

    const noRetry = pipeline({ maxRetries: 0 });
    await noRetry.handle(credit('account-x2', 1));
    await p2.handle(credit('account-x2', 1));
    await expect(noRetry.handle(credit('account-x2', 1))).rejects.toBeInstanceOf(ConcurrencyError);
  });

  it('retries a batch that met another process’s append as one batch, on states brought up to date', async () => {
    const p1 = pipeline({ batchWaitMs: 20 });
    const p2 = pipeline();
    for (let i = 0; i < 5; i++) await p1.handle(credit('account-b1', 10)); // p1 caches 50, v5
    await p1.handle(credit('account-b2', 1));
    await p1.handle(credit('account-b3', 1));
    for (let i = 0; i < 3; i++) await p2.handle(credit('account-b1', 100)); // truth: 350, v8
    const outcomes = await Promise.all([
      p1.handle(credit('account-b1', 1)),
      p1.handle(credit('account-b2', 1)),
      p1.handle(credit('account-b3', 1)),
    ]);
    expect(outcomes.map((o) => o.result)).toEqual([
      { balance: 351 },
      { balance: 2 },
      { balance: 2 },
    ]);
    // One transaction for the three (same recorded_at), right after each other.
    const last = await Promise.all(
      ['account-b1', 'account-b2', 'account-b3'].map(async (id) =>
        (await readStream(database.db, id, { catalogue: testCatalogue })).at(-1)!,
      ),
    );
    expect(new Set(last.map((e) => e.recordedAt.getTime())).size).toBe(1);
    expect(last.map((e) => e.position)).toEqual(outcomes.map((o) => o.positions[0]));
    expect(
      (await readStream(database.db, 'account-b1', { catalogue: testCatalogue })).map(
        (e) => e.version,
      ),
    ).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await p1.close();
  });

  it('redoes a batch planned on a batch in flight that then failed, refusals included', async () => {
    const p1 = pipeline({ batchMax: 1 });
    const p2 = pipeline();
    await p1.handle(credit('account-s1', 1)); // p1 caches balance 1, version 1
    await p2.handle(credit('account-s1', 100)); // truth: balance 101, version 2
    // Batch 1 is planned on the stale cache and will conflict; batch 2 is planned on batch 1's
    // states (balance 2), where the transfer of 50 looks refused: it must be redone, not refused.
    const [first, second] = await Promise.all([
      p1.handle(credit('account-s1', 1)),
      p1.handle(transfer('account-s1', 'account-s2', 50)),
    ]);
    expect(first.result).toEqual({ balance: 102 });
    expect(second.result).toEqual({ left: 52 });
    const versions = (
      await readStream(database.db, 'account-s1', { catalogue: testCatalogue })
    ).map((e) => e.version);
    expect(versions).toEqual([1, 2, 3, 4]);
    await p1.close();
  });

  it('does not refuse on a state another process has since changed', async () => {
    const p1 = pipeline();
    const p2 = pipeline();
    await p1.handle(credit('account-r1', 10)); // p1 caches balance 10
    await p2.handle(credit('account-r1', 100)); // truth: 110
    const outcome = await p1.handle(transfer('account-r1', 'account-r2', 50));
    expect(outcome.result).toEqual({ left: 60 });
    await expect(p1.handle(transfer('account-r1', 'account-r2', 61))).rejects.toMatchObject({
      data: { missing: 1 },
    });
  });

  it('keeps two processes consistent under contention', async () => {
    const processes = [pipeline({ batchWaitMs: 1 }), pipeline({ batchWaitMs: 1 })];
    const streams = Array.from({ length: 10 }, (_, i) => `account-m${i}`);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        processes[i % 2]!.handle(credit(streams[i % streams.length]!, i + 1)),
      ),
    );
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(ConcurrencyError);
    }
    const fresh = pipeline();
    for (const id of streams) {
      const expected = outcomes
        .map((o, i) =>
          o.status === 'fulfilled' && i % streams.length === streams.indexOf(id) ? i + 1 : 0,
        )
        .reduce((a, b) => a + b, 0);
      const { result } = await fresh.handle<Account>({
        streams: [id],
        decide: (states) => ({ writes: [], result: states[id]!.state }),
      });
      expect(result.balance).toBe(expected);
    }
    expect((await verifyLog(database.db)).ok).toBe(true);
  });
});
