import type { MigrationSet } from '@filiere/platform';
import * as identity from './20261121_0300_identity.js';

export const identityMigrations: MigrationSet = {
  '20261121_0300_identity': identity,
};
