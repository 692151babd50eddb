import { useTestDatabase } from '@filiere/platform/testing';
import { describe, expect, it } from 'vitest';
import { BusinessRuleError } from '../errors.js';
import { EventStore } from '../event-store.js';
import { readStream } from '../read.js';
import type { EventStoreTables } from '../schema/tables.js';
import { accountType, Credited, Noted, testCatalogue } from '../test-fixtures.js';
import {
  handleCommand,
  IDEMPOTENCY_KEY_REUSED,
  requestFingerprint,
  streamRef,
} from './handle-command.js';
import { CommandPipeline } from './pipeline.js';
import type { StreamType } from './types.js';

const database = useTestDatabase<EventStoreTables>();

/** A stream that must be opened (a Noted event) before it takes credits. */
interface Till {
  opened: boolean;
  balance: number;
}
const tillType: StreamType<Till> = {
  category: 'till',
  initialState: () => ({ opened: false, balance: 0 }),
  evolve: (state, event) => {
    if (event.type === Noted.type) return { ...state, opened: true };
    if (event.type === Credited.type)
      return { ...state, balance: state.balance + event.data.amount };
    return state;
  },
};

function pipeline(options: ConstructorParameters<typeof CommandPipeline>[1] = {}) {
  return new CommandPipeline(new EventStore(database.db, testCatalogue), options)
    .registerStreamType(accountType)
    .registerStreamType(tillType);
}

const typesOf = async (streamId: string) =>
  (await readStream(database.db, streamId, { catalogue: testCatalogue })).map((e) => e.type);

const credit = (p: CommandPipeline, id: string, amount: number, key?: string) =>
  handleCommand(p, {
    streams: { account: streamRef(accountType, id) },
    idempotency: key
      ? { key, fingerprint: requestFingerprint('credit', { id, amount }) }
      : undefined,
    decide: ({ account }, versions) => ({
      writes: [{ streamId: id, events: [Credited.create({ amount })] }],
      result: { balance: account.balance + amount, version: versions.account + 1 },
    }),
  });

describe('handleCommand, the one command runner', () => {
  it('gives decide the typed state and version of each declared stream', async () => {
    const p = pipeline();
    expect(await credit(p, 'account-h1', 40)).toEqual({ balance: 40, version: 1 });
    expect(await credit(p, 'account-h1', 2)).toEqual({ balance: 42, version: 2 });
    await p.close();
  });

  it('answers a repeated request its first result and refuses the key reused for another', async () => {
    const p = pipeline();
    const first = await credit(p, 'account-h2', 10, 'k1');
    expect(await credit(p, 'account-h2', 10, 'k1')).toEqual(first);
    const reused = credit(p, 'account-h2', 11, 'k1');
    await expect(reused).rejects.toBeInstanceOf(BusinessRuleError);
    await expect(reused).rejects.toMatchObject({
      message: IDEMPOTENCY_KEY_REUSED,
      statusCode: 422,
      data: { reason: 'IDEMPOTENCY_KEY_REUSED' },
    });
    expect(await typesOf('account-h2')).toEqual([Credited.type]);
    await p.close();
  });

  it('takes a key once when twenty clients send it at the same time', async () => {
    const p = pipeline();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => credit(p, 'account-h3', 5, 'same')),
    );
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(await typesOf('account-h3')).toEqual([Credited.type]);
    await p.close();
  });

  it('opens a new stream in the same append as its first events, and never for a refusal', async () => {
    const p = pipeline();
    const pay = (amount: number) =>
      handleCommand(p, {
        streams: { till: streamRef(tillType, 'till-1') },
        open: { till: (till) => (till.opened ? [] : [Noted.create({ count: 1 })]) },
        decide: ({ till }) => {
          if (!till.opened) throw new Error('decide must see the stream opened');
          if (amount <= 0) throw new BusinessRuleError('Montant invalide');
          return {
            writes: [{ streamId: 'till-1', events: [Credited.create({ amount })] }],
            result: till.balance + amount,
          };
        },
      });
    await expect(pay(0)).rejects.toMatchObject({ message: 'Montant invalide' });
    expect(await typesOf('till-1')).toEqual([]);
    expect(await pay(7)).toBe(7);
    expect(await pay(3)).toBe(10);
    expect(await typesOf('till-1')).toEqual([Noted.type, Credited.type, Credited.type]);
    await p.close();
  });

  it('retries conflicts with another process until every command takes effect once', async () => {
    // Four pipelines stand for four API processes; none retries inside its batches.
    const processes = Array.from({ length: 4 }, () => pipeline({ maxRetries: 0, batchWaitMs: 0 }));
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, i) => credit(processes[i % 4]!, 'account-h4', 1, `c${i}`)),
    );
    expect(answers.map((x) => x.balance).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 80 }, (_, i) => i + 1),
    );
    expect(await typesOf('account-h4')).toHaveLength(80);
    await Promise.all(processes.map((p) => p.close()));
  });

  it('refuses a stream declared under the wrong type', () => {
    expect(() => streamRef(accountType, 'till-9')).toThrow(/category "account"/);
  });
});
