import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EventStore } from '@filiere/event-store';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../../database.js';
import { seedUser } from '../../identity/test-support.js';
import { product } from '../../modules.js';
import { sendAndDeliver } from '../testing/deliver.js';
import { TwilioStandIn } from '../testing/twilio-stand-in.js';
import { GrowerMessages } from './follower.js';
import { gsm7Length, paymentSms } from './texts.js';

const logger = createLogger('silent', false);

describe("a grower's payment receipt, from the contract's settlement to the delivery report", () => {
  const testDb = useTestDatabase<Database>();
  let standIn: TwilioStandIn;
  beforeAll(async () => {
    standIn = await new TwilioStandIn().start();
  });
  afterAll(() => standIn.stop());
  beforeEach(async () => {
    await sql`truncate sms_outbox, messaging_checkpoints`.execute(testDb.db);
  });

  /** A grower with `phone`, an aggregator and an SFD with names, and a season for 2026. */
  async function parties(phone: string) {
    const grower = await seedUser(testDb.db, 'ROLE_GROWER');
    await testDb.db.updateTable('users').set({ phone }).where('id', '=', grower.id).execute();
    const aggregator = await seedUser(testDb.db, 'ROLE_INDUSTRIAL');
    await testDb.db
      .updateTable('users')
      .set({ firstname: 'Ananas', lastname: 'Plus' })
      .where('id', '=', aggregator.id)
      .execute();
    const sfd = await seedUser(testDb.db, 'ROLE_SFD');
    await testDb.db
      .updateTable('users')
      .set({ firstname: 'CLCAM', lastname: 'Allada' })
      .where('id', '=', sfd.id)
      .execute();
    await sql`insert into seasons (id, label, from_date, to_date, unit_product_amount,
      production_index, quotity, fertilizers, created_by, created_at, updated_at)
      values (26, 'Campagne 2026', '2026-01-01', '2026-12-31', 100, 1, 1, '[]', ${grower.id},
        now(), now()) on conflict do nothing`.execute(testDb.db);
    return { grower, aggregator, sfd };
  }

  /** A contract created and settled: 300 kg worth 60 000, two debts recovered. */
  async function settle(
    events: EventStore,
    p: Awaited<ReturnType<typeof parties>>,
    reference: string,
    payout: boolean,
    contractId = randomUUID(),
  ) {
    const now = new Date().toISOString();
    await events.append([
      {
        streamId: `contract-${contractId}`,
        expectedVersion: 0,
        events: [
          {
            type: 'DeliveryContractCreated',
            data: {
              contractId,
              reference,
              parentId: null,
              aggregatorUserId: p.aggregator.id,
              growerId: randomUUID(),
              growerUserId: p.grower.id,
              plotId: randomUUID(),
              productType: 'CAYENNE_LISSE',
              quantityKg: 300,
              amount: 60_000,
              deliveryDate: '2026-11-20',
              holdId: randomUUID(),
              createdBy: p.aggregator.id,
              createdAt: now,
            },
          },
          {
            type: 'DeliveryContractSettled',
            data: {
              contractId,
              deliveredKg: 300,
              deliveredAmount: 60_000,
              payableAmount: 60_000,
              shortfall: 0,
              capturedFromHold: 45_000,
              releasedFromHold: 15_000,
              extraFromAvailable: 0,
              recoveries: [
                {
                  debtId: randomUUID(),
                  kind: 'AVANCE_SUR_INTRANT',
                  creditorUserId: p.aggregator.id,
                  amount: 15_000,
                  to: 'AGGREGATOR',
                },
                {
                  debtId: randomUUID(),
                  kind: 'FINANCEMENT_SOCIAL',
                  creditorUserId: p.sfd.id,
                  amount: 5_000,
                  to: 'SFD',
                },
              ],
              growerNet: 40_000,
              payoutId: payout ? `run-${contractId}` : null,
              settledBy: p.aggregator.id,
              settledAt: now,
            },
          },
        ],
      },
    ]);
    return contractId;
  }

  const run = async (follower: GrowerMessages) => {
    while ((await follower.runDue()) > 0);
  };
  const replay = async (follower: GrowerMessages) => {
    await sql`update messaging_checkpoints set position = 0`.execute(testDb.db);
    await run(follower);
  };
  const receipts = (userId: string) =>
    testDb.db
      .selectFrom('sms_outbox')
      .select(['kind', 'text', 'season_id', 'status', 'segments'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  const referenceOf = async (contractId: string) =>
    (
      await testDb.db
        .selectFrom('document_references')
        .select(['reference', 'kind'])
        .where('subject_key', '=', `receipt:${contractId}`)
        .executeTakeFirstOrThrow()
    ).reference;

  it('sends the receipt of a net paid into the Filière account at the settlement, once', async () => {
    const phone = '+2290196100001';
    const p = await parties(phone);
    const events = new EventStore(testDb.db, product.catalogue);
    const contractId = await settle(events, p, 'LIV-000501', false);
    const follower = GrowerMessages.of(testDb.db, events, logger);
    await run(follower);
    await replay(follower);

    const reference = await referenceOf(contractId);
    const text = `Filière : paiement LIV-000501. Brut 60 000 F CFA. Retenu : Ananas Plus 15 000 F CFA, CLCAM Allada 5 000 F CFA. Net 40 000 F CFA sur votre compte Filière. Vérif. ${reference}`;
    expect(await receipts(p.grower.id)).toEqual([
      { kind: 'payment', text, season_id: 26, status: 'queued', segments: null },
    ]);

    expect(await sendAndDeliver(testDb.db, standIn, phone, logger)).toEqual([text]);
    expect(await receipts(p.grower.id)).toEqual([
      { kind: 'payment', text, season_id: 26, status: 'delivered', segments: 2 },
    ]);
    // The reference is the receipt's on the public verification page.
    expect(
      await testDb.db
        .selectFrom('document_references')
        .select('kind')
        .where('reference', '=', reference)
        .executeTakeFirst(),
    ).toEqual({ kind: 'RECEIPT' });
  });

  it('waits for the mobile money payout and names the masked number it went to', async () => {
    const phone = '+2290196100002';
    const p = await parties(phone);
    const events = new EventStore(testDb.db, product.catalogue);
    const settledId = await settle(events, p, 'LIV-000502', true);
    const follower = GrowerMessages.of(testDb.db, events, logger);
    await run(follower);
    // Settled, the payout asked: the money has not left yet, nothing is sent.
    expect(await receipts(p.grower.id)).toEqual([]);

    const withdrawalId = `run-${settledId}`;
    await events.append([
      {
        streamId: `withdrawal-${withdrawalId}`,
        expectedVersion: 0,
        events: [
          {
            type: 'WithdrawalRequested',
            data: {
              withdrawalId,
              walletId: randomUUID(),
              method: 'MOBILE_MONEY',
              amount: 40_000,
              destination: '22997123456',
              reason: 'Paiement du contrat LIV-000502',
            },
          },
          {
            type: 'WithdrawalCompleted',
            data: {
              withdrawalId,
              walletId: randomUUID(),
              amount: 40_000,
              providerId: 'tx-1',
              postings: [
                { account: 'a', amount: -40_000 },
                { account: 'b', amount: 40_000 },
              ],
            },
          },
        ],
      },
    ]);
    await run(follower);
    await replay(follower);
    const reference = await referenceOf(settledId);
    const rows = await receipts(p.grower.id);
    expect(rows.map((r) => r.text)).toEqual([
      `Filière : paiement LIV-000502. Brut 60 000 F CFA. Retenu : Ananas Plus 15 000 F CFA, CLCAM Allada 5 000 F CFA. Net 40 000 F CFA au ****3456. Vérif. ${reference}`,
    ]);
    expect(await sendAndDeliver(testDb.db, standIn, phone, logger)).toEqual([rows[0]!.text]);
    expect((await receipts(p.grower.id)).map((r) => r.status)).toEqual(['delivered']);
  });

  it('writes a receipt in GSM-7, in one SMS when there is at most one recovery', () => {
    const reference = '0123456789abcdefghjk';
    const one = paymentSms({
      contractReference: 'LIV-000123',
      gross: 1_250_000,
      recoveries: [{ creditor: 'Coopérative des producteurs de Zè', amount: 250_000 }],
      net: 1_000_000,
      paidTo: { mobileMoney: '22997123456' },
      verification: reference,
    });
    expect(gsm7Length(one), one).toBeLessThanOrEqual(160);
    const none = paymentSms({
      contractReference: 'LIV-000123',
      gross: 1_250_000,
      recoveries: [],
      net: 1_250_000,
      paidTo: { wallet: true },
      verification: reference,
    });
    expect(gsm7Length(none), none).toBeLessThanOrEqual(160);
    const two = paymentSms({
      contractReference: 'LIV-000123',
      gross: 1_250_000,
      recoveries: [
        { creditor: 'Ananas Plus', amount: 200_000 },
        { creditor: 'CLCAM Allada', amount: 50_000 },
      ],
      net: 1_000_000,
      paidTo: { wallet: true },
      verification: reference,
    });
    expect(gsm7Length(two), two).toBeDefined();
  });
});
