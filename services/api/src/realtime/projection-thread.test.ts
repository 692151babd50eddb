import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { StreamState } from '@filiere/event-store';
import { createLineLogger, parseConfig } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import type { Database } from '../database.js';
import { openWallet, walletStreamId, type WalletState } from '../wallet/index.js';
import { startProjectionThread } from './projection-thread-host.js';

const t = useTestDatabase<Database>();
const lines: Record<string, unknown>[] = [];
const logger = createLineLogger('debug', (line) => lines.push(JSON.parse(line)));
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildApp({
    config: parseConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'projection-thread-test-secret-0123456789',
    }),
    db: t.db,
    logger: createLineLogger('silent', () => undefined),
  });
});
afterAll(async () => {
  await app.close();
});

/** Opens a wallet through the command pipeline (its WalletOpened event feeds wallet_balances). */
async function openedWallet(): Promise<string> {
  const walletId = randomUUID();
  const stream = walletStreamId(walletId);
  await app.commands.handle({
    streams: [stream],
    metadata: { userId: 'projection-thread-test' },
    decide: (states: Record<string, StreamState>) =>
      openWallet(states[stream]!.state as WalletState, {
        walletId,
        ownerUserId: randomUUID(),
      }) as never,
  });
  return walletId;
}

const balanceRow = (walletId: string) =>
  t.db
    .selectFrom('wallet_balances')
    .select(['wallet_id', 'balance'])
    .where('wallet_id', '=', walletId)
    .executeTakeFirst();

describe('the projection thread (no Redis)', () => {
  it('projects in its own thread: idle() waits for what was committed, its logs reach the API logger, its priority is lowered', async () => {
    const before = await openedWallet();
    const thread = startProjectionThread({ databaseUrl: t.url, logger, nice: 5 });
    try {
      await thread.idle();
      expect(await balanceRow(before)).toEqual({ wallet_id: before, balance: 0 });
      // An append after the start: the wake (and the NOTIFY) bring it in.
      const after = await openedWallet();
      thread.wake();
      await thread.idle();
      expect(await balanceRow(after)).toEqual({ wallet_id: after, balance: 0 });
      const ready = lines.find((l) => l.msg === 'projection thread ready');
      expect(ready).toBeDefined();
      // Linux lowers the thread's own priority (not the process's); elsewhere it stays null.
      if (os.platform() === 'linux') expect(ready!.priority).toBe(5);
      expect(os.getPriority()).toBe(0);
    } finally {
      await thread.close();
    }
    // Closed: nothing projects any more (the thread and its LISTEN connection are gone).
    const late = await openedWallet();
    await new Promise((r) => setTimeout(r, 500));
    expect(await balanceRow(late)).toBeUndefined();
  });
});
