import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../../database.js';
import { createSms, SmsOutboxStore } from '../../identity/index.js';
import { buildTestApp } from '../../test-app.js';
import { SmsDispatcher } from '../dispatch/dispatcher.js';
import { twilioStatusCallback } from '../gateway/index.js';
import { twilioGateway } from '../gateway/twilio.js';
import { TwilioStandIn } from '../testing/twilio-stand-in.js';

const logger = createLogger('silent', false);
const PUBLIC_URL = 'http://filiere.test';

describe("Twilio's delivery reports", () => {
  const testDb = useTestDatabase<Database>();
  let standIn: TwilioStandIn;
  let app: FastifyInstance;
  let dispatcher: SmsDispatcher;
  const gateway = () =>
    twilioGateway({
      baseUrl: standIn.url,
      accountSid: standIn.accountSid,
      authToken: standIn.authToken,
      from: 'FILIERE',
      statusCallback: twilioStatusCallback(PUBLIC_URL),
    });

  beforeAll(async () => {
    standIn = await new TwilioStandIn().start();
    app = await buildTestApp(testDb.db, {
      env: {
        PUBLIC_URL,
        SMS_GATEWAY: 'twilio',
        TWILIO_BASE_URL: standIn.url,
        TWILIO_ACCOUNT_SID: standIn.accountSid,
        TWILIO_AUTH_TOKEN: standIn.authToken,
        TWILIO_FROM: 'FILIERE',
      },
    });
    dispatcher = new SmsDispatcher(SmsOutboxStore.of(testDb.db), gateway(), logger);
  });
  afterAll(async () => {
    await app?.close();
    await standIn.stop();
  });
  beforeEach(() => sql`truncate sms_outbox`.execute(testDb.db));

  const send = async (text: string) => {
    await createSms({ NODE_ENV: 'test' }, testDb.db, logger).send({ to: '+2290197000002', text });
    await dispatcher.runDue();
    const row = await testDb.db
      .selectFrom('sms_outbox')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return row;
  };
  const post = (report: ReturnType<TwilioStandIn['report']>, signature = report.signature) =>
    app.inject({
      method: 'POST',
      url: report.url.slice(PUBLIC_URL.length),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature,
      },
      payload: new URLSearchParams(report.params).toString(),
    });
  const row = (id: number) =>
    testDb.db.selectFrom('sms_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('marks a message delivered on a signed report, and a late "sent" does not move it back', async () => {
    const sent = await send('Filière : remis');
    const answer = await post(standIn.report(sent.gateway_id!, 'delivered'));
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ received: true });
    expect(await row(sent.id)).toMatchObject({ status: 'delivered' });
    expect((await row(sent.id)).delivered_at).not.toBeNull();
    expect((await post(standIn.report(sent.gateway_id!, 'sent'))).statusCode).toBe(200);
    expect(await row(sent.id)).toMatchObject({ status: 'delivered' });
  });

  it('fails an undelivered message with the operator’s reason', async () => {
    const sent = await send('Filière : éteint');
    await post(standIn.report(sent.gateway_id!, 'undelivered', '30003'));
    expect(await row(sent.id)).toMatchObject({
      status: 'failed',
      failure: 'Téléphone du destinataire injoignable (éteint ou hors réseau) (Twilio 30003)',
    });
  });

  it('refuses a report without Twilio’s signature, or with its parameters changed (403)', async () => {
    const sent = await send('Filière : signé');
    const report = standIn.report(sent.gateway_id!, 'delivered');
    const unsigned = await post(report, '');
    expect(unsigned.statusCode).toBe(403);
    expect(unsigned.json().message).toBe('Signature du rapport de remise invalide');
    const forged = await post({
      ...report,
      params: { ...report.params, MessageStatus: 'failed' },
    });
    expect(forged.statusCode).toBe(403);
    expect(await row(sent.id)).toMatchObject({ status: 'sent' });
  });

  it('records a report that arrives before the dispatcher wrote the gateway’s id, so the message is never sent again', async () => {
    await createSms({ NODE_ENV: 'test' }, testDb.db, logger).send({
      to: '+2290197000003',
      text: 'Filière : course',
    });
    const store = SmsOutboxStore.of(testDb.db);
    const [claim] = await store.claim(1, 60_000);
    const taken = await gateway().send({
      to: claim!.recipient,
      text: claim!.text,
      reference: claim!.id,
    });
    expect(taken.outcome).toBe('accepted');
    const sid = (taken as { id: string }).id;
    expect((await post(standIn.report(sid, 'delivered'))).json()).toEqual({ received: true });
    expect(await row(claim!.id)).toMatchObject({ status: 'delivered', gateway_id: sid });
    const requests = standIn.requests;
    await sql`update sms_outbox set locked_until = now() - interval '1 second'`.execute(testDb.db);
    expect(await dispatcher.runDue()).toBe(0);
    expect(standIn.requests).toBe(requests);
  });
});
