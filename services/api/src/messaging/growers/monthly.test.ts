import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from '@filiere/event-store';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../../database.js';
import { seedCluster, seedUser } from '../../identity/test-support.js';
import { product } from '../../modules.js';
import { requestStreamId } from '../../seasons/index.js';
import { SmsOptOuts } from '../optout/opt-outs.js';
import { sendAndDeliver } from '../testing/deliver.js';
import { TwilioStandIn } from '../testing/twilio-stand-in.js';
import { GrowerMessages } from './follower.js';
import { MonthlySummaries, previousMonth } from './monthly.js';
import { gsm7Length, monthlySummarySms } from './texts.js';

const logger = createLogger('silent', false);

describe("a grower's monthly summary, from the month's end to the delivery report", () => {
  const testDb = useTestDatabase<Database>();
  let standIn: TwilioStandIn;
  let clusterId: string;
  beforeAll(async () => {
    standIn = await new TwilioStandIn().start();
    clusterId = await seedCluster(testDb.db, 'Allada');
    await sql`truncate sms_outbox, messaging_checkpoints`.execute(testDb.db);
  });
  afterAll(() => standIn.stop());

  /** A grower (user with `phone` and growers row). */
  async function grower(phone: string) {
    const user = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId });
    await testDb.db.updateTable('users').set({ phone }).where('id', '=', user.id).execute();
    const row = await testDb.db
      .insertInto('growers')
      .values({
        user_id: user.id,
        cluster_id: clusterId,
        department_code: 'D03',
        commune_code: 'C017',
        arrondissement_code: 'A106',
        village_code: 'A106-001',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { userId: user.id, growerId: row.id, phone };
  }

  /** A contract of `g`'s, created on `createdAt`, delivered and settled on `deliveredOn`. */
  async function contract(
    g: { growerId: string; userId: string },
    aggregatorId: string,
    createdAt: string,
    delivered: { on: string; kg: number; net: number } | null,
  ) {
    await testDb.db
      .insertInto('delivery_contracts')
      .values({
        id: randomUUID(),
        reference: `LIV-${Math.floor(Math.random() * 1e6)}`,
        parent_id: null,
        aggregator_user_id: aggregatorId,
        grower_id: g.growerId,
        grower_user_id: g.userId,
        plot_id: randomUUID(),
        product_type: 'CAYENNE_LISSE',
        quantity_kg: 300,
        amount: 60_000,
        delivery_date: '2026-11-20',
        status: delivered ? 'COMPLETED' : 'CONFIRMED',
        delivered_kg: delivered?.kg ?? null,
        delivered_on: delivered?.on ?? null,
        delivered_amount: delivered ? 60_000 : null,
        recovered_amount: delivered ? 60_000 - delivered.net : null,
        grower_net: delivered?.net ?? null,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .execute();
  }

  it('sends each active grower his month once, none to one who opted out, none for a quiet month', async () => {
    const aggregator = await seedUser(testDb.db, 'ROLE_INDUSTRIAL', { clusterId });
    const active = await grower('+2290196200001');
    const optedOut = await grower('+2290196200002');
    const quiet = await grower('+2290196200003');
    await contract(active, aggregator.id, '2026-10-02T09:00:00Z', {
      on: '2026-11-20',
      kg: 300,
      net: 45_000,
    });
    await contract(active, aggregator.id, '2026-11-25T09:00:00Z', {
      on: '2026-11-28',
      kg: 120,
      net: 24_000,
    });
    await testDb.db
      .insertInto('grower_debts')
      .values({
        id: randomUUID(),
        kind: 'AVANCE_SUR_INTRANT',
        creditor_user_id: aggregator.id,
        debtor_grower_id: active.growerId,
        principal: 25_000,
        recovered: 15_000,
        opened_at: '2026-11-05T10:00:00Z',
      })
      .execute();
    await contract(optedOut, aggregator.id, '2026-11-03T09:00:00Z', null);
    await contract(quiet, aggregator.id, '2026-10-03T09:00:00Z', null);
    await SmsOptOuts.of(testDb.db).set(optedOut.userId, true, { staffUserId: aggregator.id });
    await sql`insert into seasons (id, label, from_date, to_date, unit_product_amount,
      production_index, quotity, fertilizers, created_by, created_at, updated_at)
      values (26, 'Campagne 2026', '2026-01-01', '2026-12-31', 100, 1, 1, '[]', ${aggregator.id},
        now(), now()) on conflict do nothing`.execute(testDb.db);

    let now = new Date('2026-12-01T00:30:00Z');
    const summaries = () => MonthlySummaries.of(testDb.db, logger, () => now);
    await summaries().runDue();
    await summaries().runDue();
    // A second worker after a crash: the checkpoint forgotten, the keys still hold.
    await sql`delete from messaging_checkpoints where name = 'monthly-summary'`.execute(testDb.db);
    await summaries().runDue();

    const text = monthlySummarySms({
      month: '11/2026',
      deliveries: 2,
      deliveredKg: 420,
      paid: 69_000,
      owed: 10_000,
      balance: 0,
    });
    expect(text).toBe(
      'Filière : votre mois 11/2026. Livraisons : 2, 420 kg. Net payé : 69 000 F CFA. Avances dues : 10 000 F CFA. Solde : 0 F CFA.',
    );
    const rows = await testDb.db
      .selectFrom('sms_outbox')
      .select(['user_id', 'season_id', 'recipient', 'kind', 'text', 'dedupe_key'])
      .where('kind', '=', 'monthly-summary')
      .execute();
    expect(rows).toEqual([
      {
        user_id: active.userId,
        season_id: 26,
        recipient: active.phone,
        kind: 'monthly-summary',
        text,
        dedupe_key: `monthly-summary:${active.userId}:2026-11`,
      },
    ]);
    expect(await sendAndDeliver(testDb.db, standIn, active.phone, logger)).toEqual([text]);
    const after = await testDb.db
      .selectFrom('sms_outbox')
      .select(['status', 'segments'])
      .where('kind', '=', 'monthly-summary')
      .execute();
    expect(after).toEqual([{ status: 'delivered', segments: 1 }]);

    // December: no activity, nothing sent.
    now = new Date('2027-01-01T06:00:00Z');
    await summaries().runDue();
    expect(
      await testDb.db
        .selectFrom('sms_outbox')
        .select('id')
        .where('kind', '=', 'monthly-summary')
        .execute(),
    ).toHaveLength(1);
  });

  it('still sends codes and receipts to a grower who opted out', async () => {
    const g = await grower('+2290196200004');
    await SmsOptOuts.of(testDb.db).set(g.userId, true, { sms: true });
    const events = new EventStore(testDb.db, product.catalogue);
    const requestId = 910_001;
    const someone = randomUUID();
    const at = new Date().toISOString();
    await events.append([
      {
        streamId: requestStreamId(requestId),
        expectedVersion: 0,
        events: [
          {
            type: 'GrowerRequestFiled',
            data: {
              requestId,
              reference: 'DEM-910001',
              type: 'INPUT',
              seasonId: 7,
              linkId: 1,
              industrialUserId: someone,
              sfdUserId: null,
              growerId: g.growerId,
              growerUserId: g.userId,
              fertilizerId: 1,
              quantityKg: 50,
              amount: 25_000,
              filedBy: g.userId,
              filedAt: at,
            },
          },
          {
            type: 'GrowerRequestAccepted',
            data: {
              requestId,
              acceptedBy: someone,
              acceptedAt: at,
              code: 'AGW_654321',
              debtId: null,
              transferId: null,
            },
          },
          {
            type: 'InputDelivered',
            data: {
              requestId,
              assignmentId: 1,
              providerUserId: someone,
              amount: 25_000,
              debtId: 'debt-1',
              deliveredBy: someone,
              deliveredAt: at,
            },
          },
        ],
      },
    ]);
    const follower = GrowerMessages.of(testDb.db, events, logger);
    while ((await follower.runDue()) > 0);
    const rows = await testDb.db
      .selectFrom('sms_outbox')
      .select('kind')
      .where('user_id', '=', g.userId)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.kind)).toEqual(['request-code', 'input-delivery']);
  });

  it('takes the month before in Benin time, and fits large figures in one GSM-7 SMS', () => {
    expect(previousMonth(new Date('2026-12-01T00:30:00Z'))).toEqual({
      key: '2026-11',
      from: '2026-11-01',
      to: '2026-11-30',
    });
    // 23:30 UTC on 31 December is already 1 January in Benin.
    expect(previousMonth(new Date('2026-12-31T23:30:00Z')).key).toBe('2026-12');
    expect(previousMonth(new Date('2026-03-15T12:00:00Z')).to).toBe('2026-02-28');
    const text = monthlySummarySms({
      month: '11/2026',
      deliveries: 12,
      deliveredKg: 123_456,
      paid: 12_345_678,
      owed: 1_234_567,
      balance: 12_345_678,
    });
    expect(gsm7Length(text)).toBeLessThanOrEqual(160);
  });
});
