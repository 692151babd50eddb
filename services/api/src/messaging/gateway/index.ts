import type { Config } from '@filiere/platform';
import type { SmsGateway } from './gateway.js';
import { TWILIO_STATUS_PATH, twilioGateway } from './twilio.js';

export type { GatewayMessage, LookupOutcome, SendOutcome, SmsGateway } from './gateway.js';

/** The status callback URL of an outbox message: Twilio signs its reports over this URL. */
export const twilioStatusCallback = (publicUrl: string) => (reference: number) =>
  `${publicUrl.replace(/\/$/, '')}${TWILIO_STATUS_PATH}?ref=${reference}`;

/** The configured gateway; undefined with `SMS_GATEWAY=outbox` (nothing is sent). */
export function createSmsGateway(config: Config): SmsGateway | undefined {
  if (config.SMS_GATEWAY !== 'twilio') return undefined;
  return twilioGateway({
    baseUrl: config.TWILIO_BASE_URL,
    accountSid: config.TWILIO_ACCOUNT_SID!,
    authToken: config.TWILIO_AUTH_TOKEN!,
    from: config.TWILIO_FROM!,
    statusCallback: twilioStatusCallback(config.PUBLIC_URL),
  });
}
