import type { FastifyInstance } from 'fastify';
import { parseConfig } from '@filiere/platform';
import { DEMO_SECOND_AGGREGATOR, findDemoUser } from '../../identity/index.js';
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
 * super admin validates; pays the producteur of its cluster three times; withdraws to its
 * mobile money (paid out); withdraws to a bank account the sandbox refuses (FAILED, then
 * REFUND); funds the second aggregator; and leaves a bank supply pending for the super admin
 * to validate.
 */
export const walletDemoStep: DemoStep = {
  name: 'wallet',
  async run(ctx: DemoContext) {
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
      await loadWalletDemo(app, ctx);
    } finally {
      await app.close();
    }
  },
};

async function loadWalletDemo(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const ref = async (email: string, role: RoleCode): Promise<Caller> => {
    const user = await findDemoUser(ctx.db, email);
    return { id: user.id, walletId: user.walletId, role };
  };
  const aggregator = await ref('agregateur@demo.filiere.bj', ROLE.INDUSTRIAL);
  const superAdmin = await ref('superadmin@demo.filiere.bj', ROLE.SUPER_ADMIN);
  const grower = await ref('producteur@demo.filiere.bj', ROLE.GROWER);
  const second = await ref(DEMO_SECOND_AGGREGATOR, ROLE.INDUSTRIAL);
  await ctx.db
    .updateTable('users')
    .set({ bank_account_number: DEMO_REFUSED_BANK_ACCOUNT })
    .where('id', '=', aggregator.id)
    .where('bank_account_number', 'is', null)
    .execute();

  let n = 0;
  const call = async (
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
        'idempotency-key': `demo-wallet-${++n}`,
        ...headers,
      },
      ...(payload ? { payload } : {}),
    });
    if (res.statusCode >= 300 && res.statusCode !== 303) {
      throw new Error(`demo wallet: ${method} ${url} answered ${res.statusCode} ${res.body}`);
    }
    return res;
  };

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

  // 3. Transfers to the producteur of the aggregator's cluster.
  let daysAgo = 190;
  for (const [amount, reason] of [
    [150_000, 'Avance sur récolte'],
    [75_000, 'Achat de rejets d’ananas'],
    [25_000, 'Transport des intrants'],
  ] as const) {
    await at(daysAgo);
    daysAgo -= 3;
    await call(aggregator, 'POST', '/api/wallet/make-transfer', {
      source: aggregator.walletId,
      destination: grower.walletId,
      amount,
      reason,
    });
  }

  // 4. A withdrawal to mobile money (paid out), and one to the refused bank account
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
  // 5. A financing of the second aggregator ('Financements' of both).
  await call(aggregator, 'POST', '/api/financement', { aggregatorId: second.id, amount: 100_000 });

  await at(180);
  // 6. A bank supply waiting for the super admin (admin Approvisionnements → Valider).
  await call(aggregator, 'POST', '/api/supply', {
    amount: 500_000,
    walletId: aggregator.walletId,
    accountType: 'BANK',
    bank: 'Banque Atlantique Bénin',
  });
}
