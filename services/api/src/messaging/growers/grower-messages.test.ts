import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from '@filiere/event-store';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../../database.js';
import { SmsOutboxStore } from '../../identity/index.js';
import { seedUser } from '../../identity/test-support.js';
import { product } from '../../modules.js';
import { requestStreamId } from '../../seasons/index.js';
import { SmsDispatcher } from '../dispatch/dispatcher.js';
import { twilioGateway } from '../gateway/twilio.js';
import { TwilioStandIn } from '../testing/twilio-stand-in.js';
import { GrowerMessages } from './follower.js';
import { gsm7Length, inputDeliverySms, requestCodeSms } from './texts.js';

const logger = createLogger('silent', false);

describe('what a grower receives, from the event to the delivery report', () => {
  const testDb = useTestDatabase<Database>();
  let standIn: TwilioStandIn;
  beforeAll(async () => {
    standIn = await new TwilioStandIn().start();
  });
  afterAll(() => standIn.stop());

  it('sends the request code and the delivery receipt once each, even when the log is replayed', async () => {
    const grower = await seedUser(testDb.db, 'ROLE_GROWER');
    const phone = '+2290196000001';
    await testDb.db.updateTable('users').set({ phone }).where('id', '=', grower.id).execute();
    const events = new EventStore(testDb.db, product.catalogue);
    const requestId = 900_001;
    const someone = randomUUID();
    const now = new Date().toISOString();
    await events.append([
      {
        streamId: requestStreamId(requestId),
        expectedVersion: 0,
        events: [
          {
            type: 'GrowerRequestFiled',
            data: {
              requestId,
              reference: 'DEM-900001',
              type: 'INPUT',
              seasonId: 7,
              linkId: 1,
              industrialUserId: someone,
              sfdUserId: null,
              growerId: randomUUID(),
              growerUserId: grower.id,
              fertilizerId: 1,
              quantityKg: 50,
              amount: 25_000,
              filedBy: grower.id,
              filedAt: now,
            },
          },
          {
            type: 'GrowerRequestAccepted',
            data: {
              requestId,
              acceptedBy: someone,
              acceptedAt: now,
              code: 'AGW_123456',
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
              deliveredAt: now,
            },
          },
        ],
      },
    ]);
    const follower = GrowerMessages.of(testDb.db, events, logger);
    while ((await follower.runDue()) > 0);
    // A replay: the checkpoint moved back to the start of the log.
    await sql`update messaging_checkpoints set position = 0`.execute(testDb.db);
    while ((await follower.runDue()) > 0);

    const rows = await testDb.db
      .selectFrom('sms_outbox')
      .selectAll()
      .where('user_id', '=', grower.id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.kind, r.recipient, r.season_id, r.text])).toEqual([
      ['request-code', phone, 7, requestCodeSms('DEM-900001', 50, 'AGW_123456')],
      ['input-delivery', phone, 7, inputDeliverySms('DEM-900001', 50, 25_000)],
    ]);
    expect(rows[1]!.text).toBe(
      'Filière : intrants de la demande DEM-900001 livrés, 50 kg, valeur 25 000 F CFA. Avance due : 25 000 F CFA, retenue sur vos paiements.',
    );

    const store = SmsOutboxStore.of(testDb.db);
    const dispatcher = new SmsDispatcher(
      store,
      twilioGateway({
        baseUrl: standIn.url,
        accountSid: standIn.accountSid,
        authToken: standIn.authToken,
        from: 'FILIERE',
        statusCallback: (ref) => `http://filiere.test/cb?ref=${ref}`,
      }),
      logger,
    );
    while ((await dispatcher.runDue()) > 0);
    const toGrower = standIn.messages.filter((m) => m.to === phone);
    expect(toGrower.map((m) => m.body)).toEqual(rows.map((r) => r.text));
    for (const m of toGrower) {
      expect(await store.report({ gateway: 'twilio', gatewayId: m.sid, status: 'delivered' })).toBe(
        true,
      );
    }
    const after = await testDb.db
      .selectFrom('sms_outbox')
      .select(['status', 'segments'])
      .where('user_id', '=', grower.id)
      .execute();
    expect(after).toEqual([
      { status: 'delivered', segments: 1 },
      { status: 'delivered', segments: 1 },
    ]);
  });

  it('writes every text in GSM-7, in one SMS of 160 characters', () => {
    const texts = [
      requestCodeSms('DEM-123456', 12_500, 'AGW_654321'),
      inputDeliverySms('DEM-123456', 12_500, 1_234_567_890),
    ];
    for (const text of texts) {
      const length = gsm7Length(text);
      expect(length, text).toBeDefined();
      expect(length!, text).toBeLessThanOrEqual(160);
    }
    expect(gsm7Length('l’apostrophe')).toBeUndefined();
  });
});
