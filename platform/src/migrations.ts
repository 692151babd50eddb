import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';

/**
 * Each package owns its tables and exports its migrations as a record of
 * files (`name → { up, down }`). Names start with a date so that the merged set
 * sorts in the order they were written, whichever package they come from.
 */
export type MigrationSet = Record<string, Migration>;

export function mergeMigrations(...sets: MigrationSet[]): MigrationSet {
  const merged: MigrationSet = {};
  for (const set of sets) {
    for (const [name, migration] of Object.entries(set)) {
      if (merged[name]) throw new Error(`Two migrations are named ${name}`);
      merged[name] = migration;
    }
  }
  return merged;
}

export async function migrateToLatest<DB>(
  db: Kysely<DB>,
  migrations: MigrationSet,
): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    const where = failed ? ` (migration ${failed.migrationName})` : '';
    throw new Error(
      `Migration failed${where}: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
