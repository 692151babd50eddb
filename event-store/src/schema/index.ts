import type { MigrationSet } from '@filiere/platform';
import * as events from './20261121_0100_events.js';

export const eventStoreMigrations: MigrationSet = {
  '20261121_0100_events': events,
};
