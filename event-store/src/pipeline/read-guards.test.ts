import { useTestDatabase } from '@filiere/platform/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BusinessRuleError, StaleReadError } from '../errors.js';
import { EventStore } from '../event-store.js';
import { guardVersions, readStream } from '../read.js';
import { accountType, Credited, testCatalogue, type Account } from '../test-fixtures.js';
import type { ReadGuard } from '../write.js';
import { CommandPipeline } from './pipeline.js';
import type { StreamState } from './state-cache.js';
import type { Command } from './types.js';
import type { EventStoreTables } from '../schema/tables.js';

const database = useTestDatabase<EventStoreTables>();

const pipeline = (options: ConstructorParameters<typeof CommandPipeline>[1] = {}) =>
  new CommandPipeline(new EventStore(database.db, testCatalogue), options).registerStreamType(
    accountType,
  );

const bump = (key: string) => sql`select filiere_bump_read_guard(${key})`.execute(database.db);

/** Credits `amount` unless the account holds `refuseAbove` already; writes nothing for 0. */
const credit = (
  streamId: string,
  amount: number,
  guards: ReadGuard[],
  refuseAbove = Infinity,
): Command<number> => ({
  streams: [streamId],
  guards,
  decide: (states) => {
    const { state } = states[streamId] as StreamState<Account>;
    if (state.balance > refuseAbove) throw new BusinessRuleError('Plafond atteint');
    const events = amount ? [Credited.create({ amount })] : [];
    return { writes: amount ? [{ streamId, events }] : [], result: state.balance + amount };
  },
});

const amounts = async (streamId: string) =>
  (await readStream(database.db, streamId, { catalogue: testCatalogue })).map(
    (e) => (e.data as { amount: number }).amount,
  );

describe('read guards', () => {
  it('a bump moves the guard by one; an unknown key reads 0', async () => {
    await bump('user:a');
    await bump('user:a');
    expect(await guardVersions(database.db, ['user:a', 'user:none'])).toEqual(
      new Map([
        ['user:a', 2],
        ['user:none', 0],
      ]),
    );
  });

  it('a command whose guard moved appends nothing and fails with StaleReadError; the others of its batch commit', async () => {
    const p = pipeline({ batchWaitMs: 20 });
    await bump('user:b');
    const outcomes = await Promise.allSettled([
      p.handle(credit('account-r1', 10, [{ key: 'user:b', version: 1 }])),
      p.handle(credit('account-r1', 20, [{ key: 'user:b', version: 0 }])), // read before the bump
      p.handle(credit('account-r1', 30, [{ key: 'user:c', version: 0 }])),
    ]);
    expect(outcomes[0]).toMatchObject({ status: 'fulfilled', value: { result: 10 } });
    expect(outcomes[1]).toMatchObject({ status: 'rejected' });
    const error = (outcomes[1] as PromiseRejectedResult).reason as StaleReadError;
    expect(error).toBeInstanceOf(StaleReadError);
    expect(error.keys).toEqual(['user:b']);
    expect(error.statusCode).toBe(409);
    // The batch was planned with the stale command in it: the others were decided again.
    expect(outcomes[2]).toMatchObject({ status: 'fulfilled', value: { result: 40 } });
    expect(await amounts('account-r1')).toEqual([10, 30]);
    await p.close();
  });

  it('a refusal decided on a moved guard is not delivered: StaleReadError instead', async () => {
    const p = pipeline();
    await p.handle(credit('account-r2', 5, []));
    await bump('user:d');
    await expect(
      p.handle(credit('account-r2', 1, [{ key: 'user:d', version: 0 }], 0)),
    ).rejects.toBeInstanceOf(StaleReadError);
    await expect(
      p.handle(credit('account-r2', 1, [{ key: 'user:d', version: 1 }], 0)),
    ).rejects.toThrow('Plafond atteint');
    await p.close();
  });

  it('a command that writes nothing stands only if its guards did not move', async () => {
    const p = pipeline();
    await bump('user:e');
    await expect(
      p.handle(credit('account-r3', 0, [{ key: 'user:e', version: 0 }])),
    ).rejects.toBeInstanceOf(StaleReadError);
    await expect(
      p.handle(credit('account-r3', 0, [{ key: 'user:e', version: 1 }])),
    ).resolves.toMatchObject({ result: 0 });
    await p.close();
  });

  it('a guard bumped by a transaction still open does not stop the append; its commit does', async () => {
    const p = pipeline();
    await database.db.transaction().execute(async (trx) => {
      await sql`select filiere_bump_read_guard('user:f')`.execute(trx);
      await expect(
        p.handle(credit('account-r4', 1, [{ key: 'user:f', version: 0 }])),
      ).resolves.toMatchObject({ result: 1 });
    });
    await expect(
      p.handle(credit('account-r4', 1, [{ key: 'user:f', version: 0 }])),
    ).rejects.toBeInstanceOf(StaleReadError);
    expect(await amounts('account-r4')).toEqual([1]);
    await p.close();
  });
});
