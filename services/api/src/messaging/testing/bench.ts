/** What `npm run bench:sms` drives: the dispatcher, the outbox's store and the stand-in. */
export { SmsOutboxStore } from '../../identity/index.js';
export { SmsDispatcher } from '../dispatch/dispatcher.js';
export { twilioGateway } from '../gateway/twilio.js';
export { TwilioStandIn } from './twilio-stand-in.js';
