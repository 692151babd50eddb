import { useTestDatabase } from '@filiere/platform/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, EventCatalogue } from '../catalogue.js';
import { EventStore } from '../event-store.js';
import { readAll } from '../read.js';
import { accountType, Credited, Debited, type Account } from '../test-fixtures.js';
import { UnstorableValueError } from '../write.js';
import { verifyLog } from '../verify.js';
import { CommandPipeline } from './pipeline.js';
import type { StreamState } from './state-cache.js';
import type { Command, CommandOutcome } from './types.js';
import type { EventStoreTables } from '../schema/tables.js';

/**
 * A command whose values pass every check in JavaScript but that PostgreSQL refuses at the
 * insert (a NUL character or a lone surrogate in a jsonb string, a NUL in a text key) must
 * fail alone, never the group-commit batch it was gathered in (every other command of the
 * batch would get its error).
 */
const database = useTestDatabase<EventStoreTables>();

/** An event with free text, as a transfer's reason: any JavaScript string passes its schema. */
const Noted = defineEvent({
  type: 'test.NotedWithText',
  version: 1,
  schema: z.object({ text: z.string() }),
});
const catalogue = new EventCatalogue([Credited, Debited, Noted]);

function pipeline(options: ConstructorParameters<typeof CommandPipeline>[1] = {}) {
  return new CommandPipeline(new EventStore(database.db, catalogue), options).registerStreamType(
    accountType,
  );
}

/** Credits 1 to a stream and records a note, both in one command. */
const noted = (streamId: string, text: string, key?: string): Command<{ balance: number }> => ({
  idempotencyKey: key,
  streams: [streamId],
  decide: (states) => {
    const { state } = states[streamId] as StreamState<Account>;
    return {
      writes: [{ streamId, events: [Credited.create({ amount: 1 }), Noted.create({ text })] }],
      result: { balance: state.balance + 1 },
    };
  },
});

interface Run {
  good: { key: string; stream: string; outcome: PromiseSettledResult<CommandOutcome<unknown>> }[];
  bad: { key: string; outcome: PromiseSettledResult<CommandOutcome<unknown>> }[];
}

/** `goods` good commands over 10 streams, the bad ones sent amid them, all at once. */
async function run(
  p: CommandPipeline,
  prefix: string,
  goods: number,
  bads: { at: number; text?: string; key?: string }[],
): Promise<Run> {
  const sent: { kind: 'good' | 'bad'; key: string; stream: string; promise: Promise<any> }[] = [];
  for (let i = 0; i < goods; i++) {
    for (const bad of bads.filter((b) => b.at === i)) {
      const key = bad.key ?? `${prefix}-bad-${sent.length}`;
      const stream = `account-${prefix}-${i % 10}`;
      sent.push({
        kind: 'bad',
        key,
        stream,
        promise: p.handle(noted(stream, bad.text ?? 'ok', key)),
      });
    }
    const key = `${prefix}-good-${i}`;
    const stream = `account-${prefix}-${i % 10}`;
    sent.push({
      kind: 'good',
      key,
      stream,
      promise: p.handle(noted(stream, `virement ${i}`, key)),
    });
  }
  const outcomes = await Promise.allSettled(sent.map((s) => s.promise));
  const result: Run = { good: [], bad: [] };
  sent.forEach((s, i) => {
    if (s.kind === 'good')
      result.good.push({ key: s.key, stream: s.stream, outcome: outcomes[i]! });
    else result.bad.push({ key: s.key, outcome: outcomes[i]! });
  });
  return result;
}

/** Every good command committed exactly once, with its idempotency row; the bad ones left nothing. */
async function expectOnlyGoodCommitted(prefix: string, result: Run): Promise<void> {
  for (const { outcome } of result.good) expect(outcome.status).toBe('fulfilled');
  for (const { outcome } of result.bad) {
    expect(outcome.status).toBe('rejected');
    const reason = (outcome as PromiseRejectedResult).reason;
    expect(reason).toBeInstanceOf(UnstorableValueError);
    expect(reason).toMatchObject({ statusCode: 400, data: { reason: 'UNSTORABLE_VALUE' } });
    expect(reason.message).toMatch(/ne peut pas être enregistrée/);
  }

  const events = (await readAll(database.db, { after: 0, limit: 100_000, catalogue })).filter((e) =>
    e.streamId.startsWith(`account-${prefix}-`),
  );
  // Exactly the good commands' events: two each, once, at the positions each caller was told.
  expect(events).toHaveLength(result.good.length * 2);
  const byCommand = new Map<string, number[]>();
  for (const e of events) {
    const key = String(e.metadata.commandId);
    byCommand.set(key, [...(byCommand.get(key) ?? []), e.position]);
  }
  expect([...byCommand.keys()].sort()).toEqual(result.good.map((g) => g.key).sort());
  for (const { key, outcome } of result.good) {
    expect((outcome as PromiseFulfilledResult<CommandOutcome<unknown>>).value.positions).toEqual(
      byCommand.get(key),
    );
  }
  // Per stream: versions 1…n with no hole, and the balance is the number of good commands.
  const streams = new Set(result.good.map((g) => g.stream));
  for (const stream of streams) {
    const versions = events.filter((e) => e.streamId === stream).map((e) => e.version);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
  }

  // Idempotency rows: one per good command with its positions; none for a bad one.
  const { rows } = await sql<{ key: string; positions: number[] }>`
    select key, positions from commands where key like ${`${prefix}-%`}`.execute(database.db);
  expect(rows.map((r) => r.key).sort()).toEqual(result.good.map((g) => g.key).sort());
  for (const row of rows) expect(row.positions).toEqual(byCommand.get(row.key));

  const report = await verifyLog(database.db, { catalogue });
  expect(report).toMatchObject({ ok: true });
}

describe('a command whose values PostgreSQL refuses, in a group-commit batch', () => {
  it('fails alone: the 150 commands gathered with it commit once (NUL in a jsonb string)', async () => {
    const p = pipeline({ batchMax: 256, batchWaitMs: 20 });
    const result = await run(p, 'nul', 150, [{ at: 75, text: 'raison\u0000' }]);
    await expectOnlyGoodCommitted('nul', result);
    // The pipeline goes on: the same command without the NUL commits.
    await expect(p.handle(noted('account-nul-0', 'raison', 'nul-after'))).resolves.toMatchObject({
      result: { balance: 16 },
    });
    await p.close();
  });

  it('fails alone among pipelined batches, with several bad commands and no retries allowed', async () => {
    // Small batches: the next batch is planned on the states of a batch that then fails, and
    // must be redone; maxRetries 0 still gives each part of a split batch its one transaction.
    const p = pipeline({ batchMax: 16, batchWaitMs: 1, maxRetries: 0 });
    const result = await run(p, 'many', 120, [
      { at: 0, text: '\u0000' },
      { at: 17, text: 'avant \uD800 après' }, // a lone high surrogate
      { at: 18, text: '\uDC00' }, // a lone low surrogate
      { at: 119, text: 'fin\u0000' },
    ]);
    expect(result.bad).toHaveLength(4);
    await expectOnlyGoodCommitted('many', result);
    await p.close();
  });

  it('fails alone when the database refuses its idempotency key while planning (NUL in text)', async () => {
    const p = pipeline({ batchMax: 256, batchWaitMs: 20 });
    const result = await run(p, 'key', 100, [{ at: 50, key: 'key-bad-\u0000' }]);
    await expectOnlyGoodCommitted('key', result);
    await p.close();
  });

  it('keeps a well-formed surrogate pair (an emoji) and other rare characters', async () => {
    const p = pipeline();
    const text = 'Récolte 🌾 \uFFFF \u0001 fin';
    await p.handle(noted('account-emoji-1', text, 'emoji-1'));
    const [, note] = (await readAll(database.db, { after: 0, limit: 100_000, catalogue })).filter(
      (e) => e.streamId === 'account-emoji-1',
    );
    expect(note!.data).toEqual({ text });
    expect((await verifyLog(database.db, { catalogue })).ok).toBe(true);
    await p.close();
  });
});
