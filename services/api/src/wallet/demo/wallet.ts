import type { FastifyInstance } from 'fastify';
import { parseConfig } from '@filiere/platform';
import {
  DEMO_GROWER_EMAIL,
  DEMO_SECOND_AGGREGATOR,
  findDemoUser,
  giveDemoBankAccount,
} from '../../identity/index.js';
import type { DemoContext, DemoStep } from '../../kernel/module.js';
import { ROLE, type RoleCode } from '../../kernel/roles.js';

/** A bank account the sandbox refuses payouts to (it ends in 0000): the failed withdrawal. */
export const DEMO_REFUSED_BANK_ACCOUNT = 'BJ0660100100000012340000';

interface Caller {
  id: string;
  walletId: string;
  role: string;
}

/**
 * The wallet's demo data, made with the real commands through the real API (app.inject):
 * the aggregator tops up through the sandbox widget (mobile money) and by a bank transfer a
 * super admin validates; withdraws to its mobile money (paid out); withdraws to a bank account
 * the sandbox refuses (FAILED, then REFUND); funds the second aggregator; and leaves a bank
 * supply pending for the super admin to validate. Its payments to the demo grower are the
 * next step's, once the actors' demo has registered that grower.
 */
export const walletDemoStep: DemoStep = {
  name: 'wallet',
  run: (ctx) => withWalletApp(ctx, loadWalletDemo),
};

/**
 * The aggregator pays the producteur of its cluster three times ('Mon Wallet' of both), in the
 * days after the growers were registered: it runs right after the actors' growers step, which
 * registers `producteur@` as a grower of the Allada cluster.
 */
export const walletGrowerPaymentsDemoStep: DemoStep = {
  name: 'wallet-grower-payments',
  after: 'actors-growers',
  run: (ctx) => withWalletApp(ctx, loadGrowerPayments),
};

async function withWalletApp(
  ctx: DemoContext,
  load: (app: FastifyInstance, ctx: DemoContext) => Promise<void>,
): Promise<void> {
  const env = process.env;
  const app = await ctx.openApp(
    parseConfig({
      NODE_ENV: 'test', // no background loop: the payouts below run explicitly
      LOG_LEVEL: 'silent',
      PAYMENT_PROVIDER: 'sandbox',
      ...(env.SUPPLY_BANK_NAME ? { SUPPLY_BANK_NAME: env.SUPPLY_BANK_NAME } : {}),
      ...(env.SUPPLY_BANK_ACCOUNT ? { SUPPLY_BANK_ACCOUNT: env.SUPPLY_BANK_ACCOUNT } : {}),
    }),
  );
  try {
    await load(app, ctx);
  } finally {
    await app.close();
  }
}

const ref = async (ctx: DemoContext, email: string, role: RoleCode): Promise<Caller> => {
  const user = await findDemoUser(ctx.db, email);
  return { id: user.id, walletId: user.walletId, role };
};

/** The API as `who`, each call with its own idempotency key (`prefix`-n); a refusal throws. */
function caller(app: FastifyInstance, prefix: string) {
  let n = 0;
  return async (
    who: Caller,
    method: 'GET' | 'POST',
    url: string,
    payload?: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) => {
    const res = await app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${app.jwt.sign({ sub: who.id, role: who.role as never })}`,
        'idempotency-key': `${prefix}-${++n}`,
        ...headers,
      },
      ...(payload ? { payload } : {}),
    });
    if (res.statusCode >= 300 && res.statusCode !== 303) {
      throw new Error(`demo wallet: ${method} ${url} answered ${res.statusCode} ${res.body}`);
    }
    return res;
  };
}

async function loadGrowerPayments(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const aggregator = await ref(ctx, 'agregateur@demo.filiere.bj', ROLE.INDUSTRIAL);
  const grower = await ref(ctx, DEMO_GROWER_EMAIL, ROLE.GROWER);
  const call = caller(app, 'demo-wallet-grower');
  for (const [daysAgo, hour, amount, reason] of [
    [173, 9, 150_000, 'Avance sur récolte'],
    [173, 15, 75_000, 'Achat de rejets d’ananas'],
    [172, 8, 25_000, 'Transport des intrants'],
  ] as const) {
    await ctx.clock.set(ctx.clock.beninMoment(daysAgo, hour));
    await call(aggregator, 'POST', '/api/wallet/make-transfer', {
      source: aggregator.walletId,
      destination: grower.walletId,
      amount,
      reason,
    });
  }
}

async function loadWalletDemo(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const aggregator = await ref(ctx, 'agregateur@demo.filiere.bj', ROLE.INDUSTRIAL);
  const superAdmin = await ref(ctx, 'superadmin@demo.filiere.bj', ROLE.SUPER_ADMIN);
  const second = await ref(ctx, DEMO_SECOND_AGGREGATOR, ROLE.INDUSTRIAL);
  await giveDemoBankAccount(ctx.db, aggregator.id, DEMO_REFUSED_BANK_ACCOUNT);

  const call = caller(app, 'demo-wallet');

  // The wallet's first months, before the season (Benin time).
  const at = (daysAgo: number, hour = 10) => ctx.clock.set(ctx.clock.beninMoment(daysAgo, hour));
  await at(196);
  // 1. Top-up by mobile money through the sandbox widget: page → Payer → verify.
  const momo = (
    await call(aggregator, 'POST', '/api/supply', {
      amount: 2_500_000,
      walletId: aggregator.walletId,
      accountType: 'MOBILE_MONEY',
    })
  ).json();
  const paid = await app.inject({
    method: 'POST',
    url: `/api/sandbox/pay/${momo.reference}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'outcome=SUCCESS&returnTo=%2Fapprovisionnements',
  });
  const transactionId = new URL(String(paid.headers.location), 'http://x').searchParams.get(
    'transactionId',
  );
  await call(aggregator, 'GET', `/api/supply/verify/${transactionId}`);

  await at(193);
  // 2. Top-up by bank transfer, validated by the super admin retyping the reference.
  const bank = (
    await call(aggregator, 'POST', '/api/supply', {
      amount: 1_000_000,
      walletId: aggregator.walletId,
      accountType: 'BANK',
      bank: 'Banque Atlantique Bénin',
    })
  ).json();
  await at(192, 11);
  await call(superAdmin, 'POST', '/api/supply/validate-bank-supply', {
    supplyReference: bank.reference,
    reference: bank.reference,
  });

  // 3. A withdrawal to mobile money (paid out), and one to the refused bank account
  //    (FAILED, refunded).
  await at(183);
  await call(aggregator, 'POST', `/api/wallet/make-debit/${aggregator.id}`, {
    paiementMethod: 'MOBILE_MONEY',
    amount: 200_000,
  });
  await call(aggregator, 'POST', `/api/wallet/make-debit/${aggregator.id}`, {
    paiementMethod: 'BANK',
    amount: 120_000,
  });
  while ((await app.wallet.runner.runDue()) > 0);

  await at(181);
  // 4. A financing of the second aggregator ('Financements' of both).
  await call(aggregator, 'POST', '/api/financement', { aggregatorId: second.id, amount: 100_000 });

  await at(180);
  // 5. A bank supply waiting for the super admin (admin Approvisionnements → Valider).
  await call(aggregator, 'POST', '/api/supply', {
    amount: 500_000,
    walletId: aggregator.walletId,
    accountType: 'BANK',
    bank: 'Banque Atlantique Bénin',
  });
}
