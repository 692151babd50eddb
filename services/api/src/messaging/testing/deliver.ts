import type { Kysely } from 'kysely';
import type { Logger } from '@filiere/platform';
import { SmsOutboxStore, type IdentityTables } from '../../identity/index.js';
import { SmsDispatcher } from '../dispatch/dispatcher.js';
import { twilioGateway } from '../gateway/twilio.js';
import type { TwilioStandIn } from './twilio-stand-in.js';

/**
 * Sends every queued message through the stand-in gateway, then applies a `delivered` report
 * to each message the stand-in took for `phone`: what a grower's phone would receive, in order.
 */
export async function sendAndDeliver<DB extends IdentityTables>(
  db: Kysely<DB>,
  standIn: TwilioStandIn,
  phone: string,
  logger: Logger,
): Promise<string[]> {
  const store = SmsOutboxStore.of(db);
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
  const received = standIn.messages.filter((m) => m.to === phone);
  for (const m of received) {
    await store.report({ gateway: 'twilio', gatewayId: m.sid, status: 'delivered' });
  }
  return received.map((m) => m.body);
}
