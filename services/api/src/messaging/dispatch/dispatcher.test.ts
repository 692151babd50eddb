import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../../database.js';
import { createSms, SmsOutboxStore } from '../../identity/index.js';
import { twilioGateway } from '../gateway/twilio.js';
import { TwilioStandIn } from '../testing/twilio-stand-in.js';
import { backoffDelay } from './backoff.js';
import { SmsDispatcher } from './dispatcher.js';

const logger = createLogger('silent', false);
const TO = '+2290197000001';

describe('the SMS dispatcher through a stand-in of Twilio', () => {
  const testDb = useTestDatabase<Database>();
  let standIn: TwilioStandIn;
  let store: SmsOutboxStore;

  beforeAll(async () => {
    standIn = await new TwilioStandIn().start();
  });
  afterAll(() => standIn.stop());
  beforeEach(async () => {
    await sql`truncate sms_outbox`.execute(testDb.db);
    standIn.messages.length = 0;
    standIn.requests = 0;
    standIn.down = false;
    standIn.invalidNumbers.clear();
    store = SmsOutboxStore.of(testDb.db);
  });

  const dispatcher = (options: { timeoutMs?: number; maxAttempts?: number } = {}) =>
    new SmsDispatcher(
      store,
      twilioGateway({
        baseUrl: standIn.url,
        accountSid: standIn.accountSid,
        authToken: standIn.authToken,
        from: 'FILIERE',
        statusCallback: (ref) => `http://filiere.test/api/messaging/twilio/status?ref=${ref}`,
        timeoutMs: options.timeoutMs ?? 5_000,
      }),
      logger,
      { backoff: { baseMs: 1_000, maxMs: 60_000 }, maxAttempts: options.maxAttempts ?? 20 },
    );
  const write = (text: string, key?: string, to = TO) =>
    createSms({ NODE_ENV: 'test' }, testDb.db, logger).send({
      to,
      text,
      kind: 'notice',
      ...(key ? { key } : {}),
    });
  const rows = () => testDb.db.selectFrom('sms_outbox').selectAll().orderBy('id').execute();
  /** The retry's delay has passed. */
  const due = () => sql`update sms_outbox set next_attempt_at = now()`.execute(testDb.db);

  it('sends each queued message once, with its outbox id in the status callback', async () => {
    await write('Filière : un', 'event-1:notice');
    await write('Filière : un', 'event-1:notice');
    await write('Filière : deux');
    const sms = dispatcher();
    expect(await sms.runDue()).toBe(2);
    expect(await sms.runDue()).toBe(0);
    expect(standIn.messages.map((m) => m.body).sort()).toEqual(['Filière : deux', 'Filière : un']);
    const [first] = await rows();
    expect(first).toMatchObject({ status: 'sent', gateway: 'twilio', attempts: 1, segments: 1 });
    const taken = standIn.messages.find((m) => m.sid === first!.gateway_id)!;
    expect(taken).toMatchObject({ to: TO, from: 'FILIERE', body: 'Filière : un' });
    expect(taken.statusCallback).toBe(
      `http://filiere.test/api/messaging/twilio/status?ref=${first!.id}`,
    );
  });

  it('keeps a message queued through an outage and sends it once the gateway is back', async () => {
    await write('Filière : pendant la panne');
    standIn.down = true;
    const sms = dispatcher();
    await sms.runDue();
    let [row] = await rows();
    expect(row).toMatchObject({
      status: 'queued',
      attempts: 1,
      failure: 'Passerelle indisponible (HTTP 503)',
    });
    expect(row!.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
    expect(await sms.runDue()).toBe(0);
    await due();
    await sms.runDue();
    standIn.down = false;
    await due();
    await sms.runDue();
    [row] = await rows();
    expect(row).toMatchObject({ status: 'sent', attempts: 3 });
    expect(standIn.messages).toHaveLength(1);
  });

  it('retries 429 and refused credentials, and fails a refused number at once with its reason', async () => {
    await write('Filière : limité');
    standIn.fail({ kind: 'status', status: 429 }, { kind: 'status', status: 401 });
    const sms = dispatcher();
    await sms.runDue();
    expect((await rows())[0]!.failure).toBe('Passerelle saturée (HTTP 429)');
    await due();
    await sms.runDue();
    expect((await rows())[0]!.failure).toBe('Identifiants de la passerelle refusés (HTTP 401)');
    await due();
    await sms.runDue();
    expect((await rows())[0]!.status).toBe('sent');

    standIn.invalidNumbers.add('+2290100000000');
    await write('Filière : mauvais numéro', undefined, '+2290100000000');
    await sms.runDue();
    const refused = (await rows())[1]!;
    expect(refused).toMatchObject({
      status: 'failed',
      failure: 'Numéro de destinataire invalide (Twilio 21211)',
      attempts: 1,
    });
    expect(refused.failed_at).not.toBeNull();
  });

  it('does not send twice when the gateway took the message but its answer never came', async () => {
    await write('Filière : réponse perdue');
    standIn.fail({ kind: 'slow-after-taking', ms: 1_500 });
    const sms = dispatcher({ timeoutMs: 200 });
    await sms.runDue();
    let [row] = await rows();
    expect(row).toMatchObject({
      status: 'queued',
      uncertain: true,
      failure: 'Passerelle sans réponse (délai dépassé)',
    });
    await due();
    await sms.runDue();
    [row] = await rows();
    expect(standIn.messages).toHaveLength(1);
    expect(standIn.requests).toBe(1);
    expect(row).toMatchObject({ status: 'sent', gateway_id: standIn.messages[0]!.sid });
  });

  it('sends again a message the gateway answered 5xx to, after finding it did not take it', async () => {
    await write('Filière : 502');
    standIn.fail({ kind: 'status', status: 502 });
    const sms = dispatcher();
    await sms.runDue();
    expect((await rows())[0]).toMatchObject({ status: 'queued', uncertain: true });
    await due();
    await sms.runDue();
    expect(standIn.messages).toHaveLength(1);
    expect((await rows())[0]).toMatchObject({ status: 'sent', uncertain: false });
  });

  it('does not send twice when a dispatcher stopped between the send and its write', async () => {
    await write('Filière : arrêt brutal');
    const [claim] = await store.claim(10, 60_000);
    // The crashed dispatcher's send reached the gateway; its write never happened.
    await twilioGateway({
      baseUrl: standIn.url,
      accountSid: standIn.accountSid,
      authToken: standIn.authToken,
      from: 'FILIERE',
      statusCallback: () => 'http://filiere.test/cb',
    }).send({ to: claim!.recipient, text: claim!.text, reference: claim!.id });
    await sql`update sms_outbox set locked_until = now() - interval '1 second'`.execute(testDb.db);
    await dispatcher().runDue();
    expect(standIn.messages).toHaveLength(1);
    expect((await rows())[0]).toMatchObject({
      status: 'sent',
      attempts: 2,
      gateway_id: standIn.messages[0]!.sid,
    });
    // The crashed dispatcher's late write lands nowhere.
    expect(await store.failed(claim!, 'trop tard')).toBe(false);
  });

  it('fails a message after its last attempt, with the outage as the reason', async () => {
    await write('Filière : jamais');
    standIn.down = true;
    const sms = dispatcher({ maxAttempts: 3 });
    for (let i = 0; i < 3; i++) {
      await due();
      await sms.runDue();
    }
    expect((await rows())[0]).toMatchObject({
      status: 'failed',
      attempts: 3,
      failure: 'Passerelle indisponible (HTTP 503) — abandonné après 3 tentatives',
    });
  });
});

describe('backoffDelay', () => {
  it('doubles from the base up to the cap, half of it random', () => {
    const options = { baseMs: 1_000, maxMs: 8_000 };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, options, () => 1))).toEqual([
      1_000, 2_000, 4_000, 8_000, 8_000,
    ]);
    expect([1, 2, 3].map((n) => backoffDelay(n, options, () => 0))).toEqual([500, 1_000, 2_000]);
  });
});
