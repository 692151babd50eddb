/**
 * What `npm run bench:sms` drives (the dispatcher, the outbox's store and the stand-in), and
 * the bank test (the stand-in its API processes send through, and the inbound webhook's path).
 */
export { SmsOutboxStore } from '../../identity/index.js';
export { SmsDispatcher } from '../dispatch/dispatcher.js';
export { twilioGateway } from '../gateway/twilio.js';
export { TwilioStandIn } from './twilio-stand-in.js';
export { TWILIO_INBOUND_PATH } from '../gateway/twilio.js';
