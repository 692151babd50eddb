import type { MigrationSet } from '../migrations.js';
import * as platformMeta from './20261121_0000_platform_meta.js';

export const platformMigrations: MigrationSet = {
  '20261121_0000_platform_meta': platformMeta,
};
