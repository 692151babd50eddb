import type { MigrationSet } from '@filiere/platform';

export * from './decider.js';

/** The event store's tables (issue 3 fills this in). */
export const eventStoreMigrations: MigrationSet = {};
