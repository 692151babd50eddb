import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { buildTestApp } from '../../test-app.js';
import { withdrawalStreamId } from '../domain/index.js';
import { routePayouts } from '../providers/create-provider.js';
import { createFedapayProvider } from '../providers/fedapay.js';
import { FedapayStub, type StubFault } from '../providers/fedapay-stub.js';
import { createKkiapayProvider } from '../providers/kkiapay.js';
import type { PaymentProvider } from '../providers/port.js';
import {
  fund,
  walletState,
  walletUser,
  withdrawalState,
  withKey,
  type TestUser,
} from '../http/commands/test-support.js';
import type { Database } from '../../database.js';

const stub = new FedapayStub();
const keys = { publicKey: 'pk_sandbox', secretKey: 'sk_sandbox' };

/** The adapters whose payouts reach FedaPay's payout API, with a short timeout. */
const adapters: Record<string, (baseUrl: string) => PaymentProvider> = {
  fedapay: (baseUrl) => createFedapayProvider({ baseUrl, ...keys, timeoutMs: 300 }),
  'kkiapay (payouts routed to PAYOUT_PROVIDER=fedapay)': (baseUrl) =>
    routePayouts(
      createKkiapayProvider({
        baseUrl: 'http://127.0.0.1:9/unused',
        publicKey: 'pub',
        privateKey: 'priv',
        secretKey: 'sec',
        timeoutMs: 300,
      }),
      createFedapayProvider({ baseUrl, ...keys, timeoutMs: 300 }),
    ),
};

const testDb = useTestDatabase<Database>();
let baseUrl: string;
let app: FastifyInstance;
let superAdmin: TestUser;

beforeAll(async () => {
  baseUrl = await stub.start();
  app = await buildTestApp(testDb.db, {
    env: {
      PAYMENT_PROVIDER: 'kkiapay',
      PAYOUT_PROVIDER: 'fedapay',
      KKIAPAY_PUBLIC_KEY: 'pub',
      KKIAPAY_PRIVATE_KEY: 'priv',
      KKIAPAY_SECRET_KEY: 'sec',
      FEDAPAY_BASE_URL: baseUrl,
      FEDAPAY_PUBLIC_KEY: keys.publicKey,
      FEDAPAY_SECRET_KEY: keys.secretKey,
    },
  });
  superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
});
afterAll(async () => {
  await app?.close();
  await stub.stop();
});

/** Far enough ahead that every retry (at most 10 min) is due. */
const later = () => new Date(Date.now() + 60 * 60_000);

async function withdraw(user: TestUser, amount: number): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/wallet/make-debit/${user.id}`,
    headers: withKey(user),
    payload: { paiementMethod: 'MOBILE_MONEY', amount },
  });
  expect(res.statusCode).toBe(201);
  return res.json().withdrawalId;
}

/** The final events of a withdrawal's stream: must end up exactly one. */
async function finals(withdrawalId: string): Promise<string[]> {
  const events = await app.eventStore.readStream(withdrawalStreamId(withdrawalId));
  return events
    .map((e) => e.type)
    .filter((t) => t === 'WithdrawalCompleted' || t === 'WithdrawalFailed');
}

async function job(withdrawalId: string) {
  return testDb.db
    .selectFrom('wallet_jobs')
    .select(['attempts', 'payload', 'run_at'])
    .where('id', '=', `payout:${withdrawalId}`)
    .executeTakeFirst();
}

/** Runs due jobs (as if time passed) until the payout's job is gone; at most `runs` times. */
async function runUntilDone(withdrawalId: string, runs = 8): Promise<number> {
  for (let i = 1; i <= runs; i++) {
    await app.wallet.runner.runDue(later());
    if (!(await job(withdrawalId))) return i;
  }
  throw new Error(`payout ${withdrawalId} still has a job after ${runs} runs`);
}

/** A funded user and a withdrawal of 3 000 F from its 10 000 F. */
async function scenario() {
  const user = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL', { momo: '+2290196000001' });
  await fund(app, user, superAdmin, 10_000);
  const withdrawalId = await withdraw(user, 3_000);
  expect((await walletState(app, user.walletId)).balance).toBe(7_000);
  return { user, withdrawalId };
}

it('the configuration wires KKiaPay for payments in and FedaPay for payouts', () => {
  expect(app.wallet.deps.provider.name).toBe('kkiapay');
  expect(app.wallet.deps.provider.widgetConfig({ reference: 'R', amount: 1 })).toMatchObject({
    provider: 'kkiapay',
  });
});

describe.each(Object.keys(adapters))('%s: payout faults end in one final outcome', (name) => {
  beforeAll(() => {
    app.wallet.deps.provider = adapters[name]!(baseUrl);
    stub.onStart = 'started';
    stub.faults = [];
    stub.refuseCreate = undefined;
  });

  it('a payout left started is re-checked with backoff until sent: SUCCESS, paid once', async () => {
    const { user, withdrawalId } = await scenario();
    expect(await app.wallet.runner.runDue()).toBe(1);
    // FedaPay answered `started`: still PENDING, its id kept, the next check later.
    expect((await withdrawalState(app, withdrawalId)).status).toBe('PENDING');
    const [payout] = stub.created(withdrawalId);
    expect(await job(withdrawalId)).toMatchObject({
      attempts: 1,
      payload: { withdrawalId, providerId: String(payout!.id) },
    });
    expect(await app.wallet.runner.runDue()).toBe(0); // not due yet
    await app.wallet.runner.runDue(later()); // still started: checked, not paid again
    expect((await job(withdrawalId))?.attempts).toBe(2);
    stub.settle(payout!.id, 'sent');
    await runUntilDone(withdrawalId);
    expect((await withdrawalState(app, withdrawalId)).status).toBe('SUCCESS');
    expect(await finals(withdrawalId)).toEqual(['WithdrawalCompleted']);
    expect(stub.created(withdrawalId)).toHaveLength(1);
    expect(stub.moved(withdrawalId)).toHaveLength(1);
    expect(stub.moved(withdrawalId)[0]!.starts).toBe(1);
    expect(stub.requests('get').length).toBeGreaterThanOrEqual(2);
    expect((await walletState(app, user.walletId)).balance).toBe(7_000);
  });

  it('a started payout that fails: FAILED + REFUND exactly once', async () => {
    const { user, withdrawalId } = await scenario();
    await app.wallet.runner.runDue();
    const [payout] = stub.created(withdrawalId);
    stub.settle(payout!.id, 'failed', 'Numéro non abonné');
    await runUntilDone(withdrawalId);
    const state = await withdrawalState(app, withdrawalId);
    expect(state.status).toBe('FAILED');
    expect(await finals(withdrawalId)).toEqual(['WithdrawalFailed']);
    expect((await walletState(app, user.walletId)).balance).toBe(10_000);
    // Running again (a duplicate job, another worker) changes nothing.
    await app.wallet.runner.recover();
    await app.wallet.runner.runDue(later());
    expect(await finals(withdrawalId)).toEqual(['WithdrawalFailed']);
    expect((await walletState(app, user.walletId)).balance).toBe(10_000);
  });

  const lostAnswers: [string, StubFault[]][] = [
    [
      'a timeout after the start (sent, answer lost)',
      [{ route: 'start', when: 'after', kind: 'hang' }],
    ],
    ['a 500 after the start (sent, answer lost)', [{ route: 'start', when: 'after', kind: 500 }]],
    [
      'a timeout before the start reaches FedaPay',
      [{ route: 'start', when: 'before', kind: 'hang' }],
    ],
    ['a 500 on the create (nothing created)', [{ route: 'create', when: 'before', kind: 500 }]],
    [
      'a 500 after the start, then a 500 on the check',
      [
        { route: 'start', when: 'after', kind: 500 },
        { route: 'get', when: 'before', kind: 500 },
      ],
    ],
    [
      'a timeout after the create (created, answer lost)',
      [{ route: 'create', when: 'after', kind: 'hang' }],
    ],
  ];
  it.each(lostAnswers)('%s: one payout moves money, SUCCESS once', async (_label, faults) => {
    stub.onStart = 'sent';
    stub.faults = [...faults];
    try {
      const { user, withdrawalId } = await scenario();
      const runs = await runUntilDone(withdrawalId);
      expect(runs).toBeGreaterThan(1); // the fault made a retry
      expect(stub.faults).toEqual([]);
      expect((await withdrawalState(app, withdrawalId)).status).toBe('SUCCESS');
      expect(await finals(withdrawalId)).toEqual(['WithdrawalCompleted']);
      const moved = stub.moved(withdrawalId);
      expect(moved).toHaveLength(1);
      expect(moved[0]!.starts).toBe(1);
      expect(moved[0]!.amount).toBe(3_000);
      // Any other payout created for it never started (no money moved).
      for (const other of stub.created(withdrawalId)) {
        if (other !== moved[0]) expect(other.status).toBe('pending');
      }
      expect((await walletState(app, user.walletId)).balance).toBe(7_000);
    } finally {
      stub.onStart = 'started';
      stub.faults = [];
    }
  });

  it('a timeout then a refusal: FAILED + REFUND once, nothing paid', async () => {
    stub.faults = [{ route: 'create', when: 'before', kind: 'hang' }];
    stub.refuseCreate = { status: 400, message: 'Solde marchand insuffisant' };
    try {
      const { user, withdrawalId } = await scenario();
      expect(await runUntilDone(withdrawalId)).toBe(2);
      expect(await finals(withdrawalId)).toEqual(['WithdrawalFailed']);
      expect(stub.created(withdrawalId)).toHaveLength(0);
      expect((await walletState(app, user.walletId)).balance).toBe(10_000);
    } finally {
      stub.refuseCreate = undefined;
      stub.faults = [];
    }
  });
});

it('a payout left PENDING is recovered after a restart: the new process re-checks it, never pays again', async () => {
  app.wallet.deps.provider = adapters.fedapay!(baseUrl);
  const { user, withdrawalId } = await scenario();
  await app.wallet.runner.runDue();
  expect((await withdrawalState(app, withdrawalId)).status).toBe('PENDING');
  const [payout] = stub.created(withdrawalId);
  // The process stops; another starts on the same database with the configured provider.
  const second = await buildTestApp(testDb.db, {
    env: {
      PAYMENT_PROVIDER: 'fedapay',
      FEDAPAY_BASE_URL: baseUrl,
      FEDAPAY_PUBLIC_KEY: keys.publicKey,
      FEDAPAY_SECRET_KEY: keys.secretKey,
    },
  });
  try {
    expect(await second.wallet.runner.recover()).toBe(0); // its job row is still there
    stub.settle(payout!.id, 'sent');
    const creates = stub.requests('create').length;
    await second.wallet.runner.runDue(later());
    expect((await withdrawalState(second, withdrawalId)).status).toBe('SUCCESS');
    expect(stub.requests('create')).toHaveLength(creates);
    expect(stub.moved(withdrawalId)).toHaveLength(1);
    expect(await second.wallet.runner.store.list()).toEqual([]);
    expect((await walletState(second, user.walletId)).balance).toBe(7_000);
  } finally {
    await second.close();
  }
});
