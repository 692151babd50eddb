import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { handleCommand, streamRef } from '@filiere/event-store';
import { createLineLogger, parseConfig } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import type { Database } from '../database.js';
import { openWallet, walletStream, walletStreamId } from '../wallet/index.js';
import { startBackgroundThread, type BackgroundThread } from './background-thread-host.js';
import { buildTestApp } from '../test-app.js';
import {
  fund,
  walletUser,
  withdrawalState,
  withKey,
} from '../wallet/http/commands/test-support.js';

const t = useTestDatabase<Database>();
const SECRET = 'background-thread-test-secret-0123456789';
const lines: Record<string, unknown>[] = [];
const logger = createLineLogger('debug', (line) => lines.push(JSON.parse(line)));
let app: FastifyInstance;
/**
 * The thread under test, one for the file: a start loads the product's modules in a new thread
 * through tsx (5-10 s on a loaded machine, and more than a test's timeout on a busy one), so it
 * starts here, under the hook's timeout. Outside NODE_ENV=test, so that the jobs without Redis
 * (the integrity verifier, the wallet's payouts) run in it too; lowered to nice 5.
 */
let thread: BackgroundThread;
let closing: Promise<void> | undefined;
const closeThread = () => (closing ??= thread?.close() ?? Promise.resolve());
/** A wallet committed before the thread started, and the head of the log then. */
let before: string;
let target: number;

beforeAll(async () => {
  app = await buildApp({
    config: parseConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      JWT_SECRET: SECRET,
    }),
    db: t.db,
    logger: createLineLogger('silent', () => undefined),
  });
  before = await openedWallet();
  target = await head();
  const config = parseConfig({ NODE_ENV: 'development', JWT_SECRET: SECRET, LOG_LEVEL: 'debug' });
  thread = startBackgroundThread({ config, databaseUrl: t.url, logger, nice: 5 });
  while (!lines.some((l) => l.msg === 'background thread ready')) {
    await new Promise((r) => setTimeout(r, 50));
  }
});
afterAll(async () => {
  await closeThread();
  await app?.close();
});

/** Opens a wallet through the command pipeline (its WalletOpened event feeds wallet_balances). */
async function openedWallet(): Promise<string> {
  const walletId = randomUUID();
  const stream = walletStreamId(walletId);
  await handleCommand(app.commands, {
    streams: { wallet: streamRef(walletStream, stream) },
    metadata: { userId: 'background-thread-test' },
    decide: ({ wallet }) => openWallet(wallet, { walletId, ownerUserId: randomUUID() }),
  });
  return walletId;
}

const balanceRow = (walletId: string) =>
  t.db
    .selectFrom('wallet_balances')
    .select(['wallet_id', 'balance'])
    .where('wallet_id', '=', walletId)
    .executeTakeFirst();

const head = async () =>
  Number(
    (
      await t.db
        .selectFrom('events')
        .select((eb) => eb.fn.max('position').as('p'))
        .executeTakeFirst()
    )?.p ?? 0,
  );

describe('the background thread (no Redis)', () => {
  it('projects in its own thread and verifies the ledger there: idle() waits for what was committed, its logs reach the API logger, its priority is lowered', async () => {
    await thread.idle();
    expect(await balanceRow(before)).toEqual({ wallet_id: before, balance: 0 });
    // An append after the start: the wake (and the NOTIFY) bring it in.
    const after = await openedWallet();
    thread.wake();
    await thread.idle();
    expect(await balanceRow(after)).toEqual({ wallet_id: after, balance: 0 });
    // The integrity verifier runs in the thread: its first run (at start) verifies the chain
    // up to the head it finds then, which holds at least the first wallet's events.
    for (let i = 0; i < 100; i++) {
      const row = await t.db
        .selectFrom('audit_integrity')
        .select(['last_position', 'status'])
        .executeTakeFirstOrThrow();
      if (Number(row.last_position) >= target) {
        expect(row.status).toBe('OK');
        break;
      }
      if (i === 99) throw new Error(`the chain was verified up to ${row.last_position} only`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const ready = lines.find((l) => l.msg === 'background thread ready');
    expect(ready).toBeDefined();
    // Linux lowers the thread's own priority (not the process's); elsewhere it stays null.
    if (os.platform() === 'linux') expect(ready!.priority).toBe(5);
    expect(os.getPriority()).toBe(0);
  });

  it('pays a withdrawal from the thread: the API schedules the payout job and wakes the thread, whose own pipeline completes it once the API’s foreground work is over', async () => {
    const api = await buildTestApp(t.db, {
      backgroundThread: { wakeJob: thread.wakeJob, foreground: thread.foreground },
    });
    try {
      // The API's thread runs no wallet job loop: the background thread does.
      expect(api.wallet.loop).toBeUndefined();
      const superAdmin = await walletUser(api, t.db, 'ROLE_SUPER_ADMIN');
      const aggregator = await walletUser(api, t.db, 'ROLE_INDUSTRIAL');
      await fund(api, aggregator, superAdmin, 50_000);
      const endForeground = thread.foreground.begin();
      const res = await api.inject({
        method: 'POST',
        url: `/api/wallet/make-debit/${aggregator.id}`,
        headers: withKey(aggregator),
        payload: { paiementMethod: 'MOBILE_MONEY', amount: 1_500 },
      });
      expect(res.statusCode).toBe(201);
      const { withdrawalId } = res.json() as { withdrawalId: string };
      // While the API's thread does foreground work (a contract run marks its runs so), the
      // thread's payouts wait; they go on as soon as it ends.
      await new Promise((r) => setTimeout(r, 1_500));
      expect((await withdrawalState(api, withdrawalId)).status).not.toBe('SUCCESS');
      expect(await t.db.selectFrom('wallet_jobs').select('id').execute()).toHaveLength(1);
      endForeground();
      // The job's row goes once its completion command is appended, just after: wait for both.
      for (let i = 0; ; i++) {
        const { status } = await withdrawalState(api, withdrawalId);
        const jobs = await t.db.selectFrom('wallet_jobs').select('id').execute();
        if (status === 'SUCCESS' && jobs.length === 0) break;
        if (i === 200) {
          throw new Error(`the withdrawal is ${status}, jobs left: ${JSON.stringify(jobs)}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await api.close();
    }
  });

  it('once closed, projects nothing: the thread and its LISTEN connection are gone', async () => {
    await thread.idle();
    await closeThread();
    const late = await openedWallet();
    await new Promise((r) => setTimeout(r, 500));
    expect(await balanceRow(late)).toBeUndefined();
  });
});
