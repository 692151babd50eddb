import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catchUp } from '@filiere/projections';
import { useTestDatabase } from '@filiere/platform/testing';
import { seedCluster } from '../../../identity/test-support.js';
import { buildTestApp } from '../../../test-app.js';
import { walletProjectors } from '../../read-model/index.js';
import { walletDecoder } from '../../read-model/test-support.js';
import { fund, walletUser, withKey, type TestUser } from '../commands/test-support.js';
import type { Database } from '../../../database.js';

/**
 * What a user reads of its own movements: 'Paiements effectués'
 * lists only what the user paid, and a transaction's detail names its real means and the
 * other side, whichever side the caller is on. Made with the real commands and payout job.
 */
describe('transaction lists and details as each side sees them', () => {
  const t = useTestDatabase<Database>();
  let app: FastifyInstance;
  let aggregator: TestUser;
  let grower: TestUser;
  const refs = { supply: '', transfer: '', paid: '', refused: '' };

  const get = (who: TestUser, url: string) =>
    app.inject({ method: 'GET', url, headers: who.headers });
  const post = async (who: TestUser, url: string, payload: object) => {
    const res = await app.inject({ method: 'POST', url, headers: withKey(who), payload });
    if (res.statusCode !== 201) throw new Error(`${url}: ${res.body}`);
    return res.json();
  };
  const rows = async (who: TestUser, query = '') =>
    (await get(who, `/api/transaction?limit=-1${query}`)).json().data as {
      id: string;
      reference: string;
      operationType: string;
      direction: string;
      status: string;
    }[];
  const rowOf = async (who: TestUser, type: string, reference: string) =>
    (await rows(who)).find((r) => r.operationType === type && r.reference === reference)!;
  const detail = async (who: TestUser, type: string, reference: string) => {
    const res = await get(who, `/api/transaction/${(await rowOf(who, type, reference)).id}`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    app = await buildTestApp(t.db);
    const cluster = await seedCluster(t.db, `Vues ${Date.now()}`);
    const superAdmin = await walletUser(app, t.db, 'ROLE_SUPER_ADMIN');
    // The sandbox refuses payouts to accounts ending in 0000.
    aggregator = await walletUser(app, t.db, 'ROLE_INDUSTRIAL', {
      clusterId: cluster,
      bank: 'BJ0660100100000012340000',
    });
    grower = await walletUser(app, t.db, 'ROLE_GROWER', { clusterId: cluster });
    await t.db
      .updateTable('users')
      .set({ nip: '1098765432' })
      .where('id', '=', grower.id)
      .execute();
    refs.supply = await fund(app, aggregator, superAdmin, 100_000);
    refs.transfer = (
      await post(aggregator, '/api/wallet/make-transfer', {
        source: aggregator.walletId,
        destination: grower.walletId,
        amount: 7_000,
        reason: 'Achat de rejets',
      })
    ).reference;
    refs.paid = (
      await post(aggregator, `/api/wallet/make-debit/${aggregator.id}`, {
        paiementMethod: 'MOBILE_MONEY',
        amount: 3_000,
      })
    ).withdrawalId;
    refs.refused = (
      await post(aggregator, `/api/wallet/make-debit/${aggregator.id}`, {
        paiementMethod: 'BANK',
        amount: 2_000,
      })
    ).withdrawalId;
    while ((await app.wallet.runner.runDue()) > 0);
    for (const projector of walletProjectors) {
      await catchUp(t.db, projector, { decode: walletDecoder });
    }
  });
  afterAll(async () => {
    await app.close();
  });

  it('direction=OUT lists the payments the user made: transfers and withdrawals, no supply or refund', async () => {
    const all = await rows(aggregator);
    expect(all.map((r) => `${r.operationType} ${r.direction}`).sort()).toEqual(
      ['SUPPLY IN', 'TRANSFER OUT', 'DEBIT OUT', 'DEBIT OUT', 'REFUND IN'].sort(),
    );
    const paid = await get(aggregator, '/api/transaction?direction=OUT');
    expect(paid.statusCode).toBe(200);
    expect(paid.json().count).toBe(3);
    expect(
      paid.json().data.map((r: { operationType: string; direction: string }) => r.direction),
    ).toEqual(['OUT', 'OUT', 'OUT']);
    expect(
      paid
        .json()
        .data.map((r: { operationType: string }) => r.operationType)
        .sort(),
    ).toEqual(['DEBIT', 'DEBIT', 'TRANSFER']);
    // The name search goes through the other query: the filter holds there too.
    const searched = await get(aggregator, '/api/transaction?direction=OUT&q=rejets');
    expect(searched.json().data.map((r: { reference: string }) => r.reference)).toEqual([
      refs.transfer,
    ]);
    const received = await rows(aggregator, '&direction=IN');
    expect(received.map((r) => r.operationType).sort()).toEqual(['REFUND', 'SUPPLY']);
    expect((await get(aggregator, '/api/transaction?direction=SIDEWAYS')).statusCode).toBe(400);
  });

  it('the detail names the real means: bank supply, mobile-money and bank withdrawals, wallet transfer', async () => {
    const supply = await detail(aggregator, 'SUPPLY', refs.supply);
    expect(supply).toMatchObject({ paymentMeans: 'BANK', direction: 'IN' });
    const paid = await detail(aggregator, 'DEBIT', refs.paid);
    expect(paid).toMatchObject({
      paymentMeans: 'MOBILE_MONEY',
      direction: 'OUT',
      status: 'SUCCESS',
      payoutAccount: '+2290197123456',
    });
    const refused = await detail(aggregator, 'DEBIT', refs.refused);
    expect(refused).toMatchObject({
      paymentMeans: 'BANK',
      status: 'FAILED',
      payoutAccount: 'BJ0660100100000012340000',
    });
    const refund = await detail(aggregator, 'REFUND', refs.refused);
    expect(refund).toMatchObject({
      paymentMeans: 'BANK',
      direction: 'IN',
      payoutAccount: 'BJ0660100100000012340000',
    });
    expect(await detail(aggregator, 'TRANSFER', refs.transfer)).toMatchObject({
      paymentMeans: 'WALLET',
    });
  });

  it('each side of a transfer sees the other: the payer its beneficiary, the recipient its sender', async () => {
    const names = async (id: string) =>
      t.db
        .selectFrom('users')
        .select(['firstname', 'lastname', 'phone'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const a = await names(aggregator.id);
    const g = await names(grower.id);
    const sent = await detail(aggregator, 'TRANSFER', refs.transfer);
    expect(sent).toMatchObject({
      direction: 'OUT',
      beneficiary: { name: `${g.firstname} ${g.lastname}`, nip: '1098765432' },
      sender: { name: null },
    });
    const got = await detail(grower, 'TRANSFER', refs.transfer);
    expect(got).toMatchObject({
      direction: 'IN',
      sender: { name: `${a.firstname} ${a.lastname}`, phone: a.phone },
      beneficiary: { name: null },
      paymentMeans: 'WALLET',
    });
    // Names are read when asked, not kept in the read tables: a renamed sender shows renamed.
    await t.db
      .updateTable('users')
      .set({ lastname: 'Renommé' })
      .where('id', '=', aggregator.id)
      .execute();
    expect((await detail(grower, 'TRANSFER', refs.transfer)).sender.name).toBe(
      `${a.firstname} Renommé`,
    );
  });
});
