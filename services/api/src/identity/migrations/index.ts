import type { MigrationSet } from '@filiere/platform';
import * as identity from './20261121_0300_identity.js';
import * as userNip from './20261121_0301_user_nip.js';

export const identityMigrations: MigrationSet = {
  '20261121_0300_identity': identity,
  '20261121_0301_user_nip': userNip,
};
