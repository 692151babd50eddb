import { eventStoreMigrations } from '@filiere/event-store';
import { mergeMigrations, platformMigrations } from '@filiere/platform';
import { projectionMigrations, walletReadMigrations } from '@filiere/projections';
import { identityMigrations } from './identity/index.js';
import { walletMigrations } from './wallet/index.js';

/**
 * Every table of the product, across the packages that own them. Names start
 * with a date and a block number (platform 00xx, event store 01xx, projections
 * 02xx, identity 03xx, wallet 04xx) so the merged set sorts in writing order.
 */
export const allMigrations = mergeMigrations(
  platformMigrations,
  eventStoreMigrations,
  projectionMigrations,
  walletReadMigrations,
  identityMigrations,
  walletMigrations,
);
