import type { MigrationSet } from '@filiere/platform';
import * as locations from './20261125_0500_locations.js';

/** Block 05xx; sorts before the actors' (0600…), whose addresses name these codes. */
export const locationsMigrations: MigrationSet = {
  '20261125_0500_locations': locations,
};
