import type { MigrationSet } from '@filiere/platform';
import * as events from './20261121_0100_events.js';
import * as appendWithHashes from './20261121_0101_append_with_hashes.js';
import * as appendHintMiss from './20261121_0102_append_hint_miss.js';
import * as appendJsonPayloads from './20261201_0103_append_json_payloads.js';
import * as readGuards from './20261202_0104_read_guards.js';

export const eventStoreMigrations: MigrationSet = {
  '20261121_0100_events': events,
  '20261121_0101_append_with_hashes': appendWithHashes,
  '20261121_0102_append_hint_miss': appendHintMiss,
  '20261201_0103_append_json_payloads': appendJsonPayloads,
  '20261202_0104_read_guards': readGuards,
};
