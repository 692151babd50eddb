import type { MigrationSet } from '@filiere/platform';
import * as inputIds from './20261126_0100_season_input_ids.js';
import * as linkEventsIndex from './20261128_0401_link_events_index.js';

/** The inputs area's write side (block 20261126_0100–0109). */
export const inputWriteMigrations: MigrationSet = {
  '20261126_0100_season_input_ids': inputIds,
  '20261128_0401_link_events_index': linkEventsIndex,
};
