import type { MigrationSet } from '@filiere/platform';

/** Read tables and checkpoints (issue 3 fills this in). */
export const projectionMigrations: MigrationSet = {};
