import type { MigrationSet } from '@filiere/platform';
import * as identity from './20261121_0300_identity.js';
import * as userNip from './20261121_0301_user_nip.js';
import * as tokenVersion from './20261122_0302_user_token_version.js';
import * as members from './20261125_0310_members.js';
import * as membersPhone from './20261125_0311_members_phone_check.js';
import * as readGuard from './20261202_0312_user_read_guard.js';
import * as smsDelivery from './20261207_0320_sms_outbox_delivery.js';

/**
 * Names sort after every migration already applied anywhere (wallet's 20261121_04xx
 * included): Kysely's migrator refuses a new migration that sorts before an executed one.
 */
export const identityMigrations: MigrationSet = {
  '20261121_0300_identity': identity,
  '20261121_0301_user_nip': userNip,
  '20261122_0302_user_token_version': tokenVersion,
  '20261125_0310_members': members,
  '20261125_0311_members_phone_check': membersPhone,
  '20261202_0312_user_read_guard': readGuard,
  '20261207_0320_sms_outbox_delivery': smsDelivery,
};
