import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../../database.js';
import { createMailer, members, type SmsSender } from '../../identity/index.js';
import { seedCluster, seedUser } from '../../identity/test-support.js';
import { buildTestApp } from '../../test-app.js';
import { SmsOptOuts } from '../optout/opt-outs.js';
import { sendAndDeliver } from '../testing/deliver.js';
import { TwilioStandIn } from '../testing/twilio-stand-in.js';
import { gsm7Length } from './texts.js';

const logger = createLogger('silent', false);

/** A grower's PIN, reset by his cluster manager, reaches his phone by SMS. */
describe("a grower's PIN, from its reset to the delivery report", () => {
  const testDb = useTestDatabase<Database>();
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let standIn: TwilioStandIn;
  let clusterId: string;
  let managerId: string;

  beforeAll(async () => {
    standIn = await new TwilioStandIn().start();
    app = await buildTestApp(testDb.db);
    await app.ready();
    clusterId = await seedCluster(testDb.db, 'Tori');
    managerId = (await seedUser(testDb.db, 'ROLE_CLUSTER_MANAGER', { clusterId })).id;
    await sql`truncate sms_outbox`.execute(testDb.db);
  });
  afterAll(async () => {
    await app?.close();
    await standIn?.stop();
  });

  async function grower(phone: string) {
    const user = await seedUser(testDb.db, 'ROLE_GROWER', { clusterId });
    await testDb.db.updateTable('users').set({ phone }).where('id', '=', user.id).execute();
    return user.id;
  }
  const pinHash = async (userId: string) =>
    (
      await testDb.db
        .selectFrom('users')
        .select('pin_hash')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).pin_hash;
  const resets = async (userId: string) =>
    (
      await sql<{ n: number }>`select count(*)::integer as n from events
        where type = 'UserPinReset' and data->>'userId' = ${userId}`.execute(testDb.db)
    ).rows[0]!.n;

  it('sends the new PIN once, in one GSM-7 segment, even to a grower who opted out', async () => {
    const phone = '+2290196300001';
    const userId = await grower(phone);
    await SmsOptOuts.of(testDb.db).set(userId, true, { sms: true });
    const token = app.jwt.sign({
      sub: managerId,
      role: 'ROLE_CLUSTER_MANAGER',
    });

    const answer = await app.inject({
      method: 'GET',
      url: `/api/users/${userId}/reset-pin`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.statusCode).toBe(200);

    const received = await sendAndDeliver(testDb.db, standIn, phone, logger);
    expect(received).toHaveLength(1);
    const pin =
      /^Filière : votre nouveau code PIN est (\d{5})\. Ne le communiquez à personne\.$/.exec(
        received[0]!,
      )?.[1];
    expect(pin).toMatch(/^\d{5}$/);
    expect(gsm7Length(received[0]!)).toBeLessThanOrEqual(160);
    const rows = await testDb.db
      .selectFrom('sms_outbox')
      .select(['kind', 'user_id', 'status', 'segments'])
      .where('recipient', '=', phone)
      .execute();
    expect(rows).toEqual([{ kind: 'pin', user_id: userId, status: 'delivered', segments: 1 }]);
  });

  it('changes no PIN when its SMS cannot be written (the grower would not know it)', async () => {
    const userId = await grower('+2290196300002');
    const { config, db } = app.deps;
    const broken: SmsSender = {
      send: () => Promise.reject(new Error('outbox unavailable')),
      within: () => broken,
    };
    const face = members({
      db,
      commands: app.commands,
      logger,
      sms: broken,
      mailer: createMailer(config, db, logger),
      publicUrl: config.PUBLIC_URL,
    });

    await expect(face.resetPin(userId, managerId)).rejects.toThrow('outbox unavailable');
    expect(await pinHash(userId)).toBeNull();
    expect(await resets(userId)).toBe(0);
  });
});
