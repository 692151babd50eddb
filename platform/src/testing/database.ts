import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { createDb, withDatabase } from '../db.js';
import './provided.js';

/**
 * `DB` names the tables the caller reads and writes (`Database` in the API's tests, the
 * narrowest tables elsewhere): it has no default, so a test cannot get an untyped Kysely.
 */
export interface TestDatabase<DB extends object> {
  /** URL of this test file's own database. */
  url: string;
  /** Superuser URL of the server (for CREATE/DROP DATABASE, pg_terminate_backend…). */
  adminUrl: string;
  name: string;
  db: Kysely<DB>;
  drop(): Promise<void>;
}

/** Copies the migrated template into a fresh database that only this caller uses. */
export function createTestDatabase<DB extends object>(): Promise<TestDatabase<DB>> {
  return copyTemplate<DB>(inject('pgAdminUrl'), inject('pgTemplate'));
}

/**
 * What a seeded template holds: `name` names it within this run (letters, digits and `_`,
 * short: it becomes part of a database name) and changes whenever what `load` writes would
 * change (e.g. it carries the day when `load` writes dates relative to today); `load` writes
 * the data on the migrated template's copy and must leave nothing outside that database
 * (no files, no state in this process that the copies need).
 */
export interface TestSeed<DB extends object> {
  name: string;
  load(db: Kysely<DB>): Promise<void>;
}

/**
 * A fresh database of this caller's own, copied from a template of this run that holds
 * the migrations AND `seed`'s data: the first caller of the run (across every test worker,
 * one at a time under an advisory lock) builds that template by running `seed.load` once,
 * every caller then copies it (a file copy in PostgreSQL, instead of running the load
 * again). Each copy is independent: a test may change its data freely. The template is
 * named after the run's migrated template, so a new run builds it again from the code as
 * it is then; the global setup drops it at the end of the run.
 */
export async function createSeededTestDatabase<DB extends object>(
  seed: TestSeed<DB>,
): Promise<TestDatabase<DB>> {
  if (!/^[a-z0-9_]{1,24}$/.test(seed.name)) {
    throw new Error(`seed name "${seed.name}": 1 to 24 of a-z, 0-9, _`);
  }
  const adminUrl = inject('pgAdminUrl');
  const base = inject('pgTemplate');
  const seeded = seededTemplateName(base, seed.name);
  await withAdmin(adminUrl, async (client) => {
    // One builder at a time across the run's workers; the lock goes with its session, so
    // a worker that dies while building leaves no lock behind (only a half-built copy,
    // which the next builder drops).
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [seeded]);
    try {
      if (await databaseExists(client, seeded)) return;
      await client.query(`DROP DATABASE IF EXISTS "${seeded}_b" WITH (FORCE)`);
      const building = await copyTemplate<DB>(adminUrl, base, `${seeded}_b`);
      try {
        await seed.load(building.db);
      } catch (error) {
        await building.drop();
        throw error;
      }
      await building.db.destroy();
      // Nothing may stay connected to a template; the load's sessions are over.
      await client.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
        [building.name],
      );
      // Renamed only once complete: a copy is never taken of a half-loaded template.
      await whileInUse(() =>
        client.query(`ALTER DATABASE "${building.name}" RENAME TO "${seeded}"`),
      );
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [seeded]);
    }
  });
  return copyTemplate<DB>(adminUrl, seeded);
}

/** The database holding `seedName`'s data for the run whose migrated template is `base`. */
export function seededTemplateName(base: string, seedName: string): string {
  return `${base}__${seedName}`;
}

/**
 * Runs `statement` again while PostgreSQL refuses it because another session is on the
 * database (a concurrent copy of the same template, or a closed pool's backend still exiting).
 */
async function whileInUse<T>(statement: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await statement();
    } catch (error) {
      if (attempt < 40 && /being accessed by other users/.test(String(error))) {
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
        continue;
      }
      throw error;
    }
  }
}

async function databaseExists(client: pg.Client, name: string): Promise<boolean> {
  const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  return (found.rowCount ?? 0) > 0;
}

async function copyTemplate<DB extends object>(
  adminUrl: string,
  template: string,
  name = `t_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
): Promise<TestDatabase<DB>> {
  // Two copies of one template at the same instant can collide; try again.
  await withAdmin(adminUrl, (client) =>
    whileInUse(() => client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`)),
  );
  const url = withDatabase(adminUrl, name);
  const db = createDb<DB>(url, { max: 10, applicationName: 'filiere-test' });
  return {
    url,
    adminUrl,
    name,
    db,
    async drop() {
      await db.destroy();
      await withAdmin(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      );
    },
  };
}

/**
 * Registers beforeAll/afterAll hooks giving the test file its own database; the
 * returned object is filled in before the first test runs.
 */
export function useTestDatabase<DB extends object>(): TestDatabase<DB> {
  const handle = {} as TestDatabase<DB>;
  beforeAll(async () => {
    Object.assign(handle, await createTestDatabase<DB>());
  });
  afterAll(async () => {
    await handle.drop?.();
  });
  return handle;
}

export async function withAdmin<T>(
  adminUrl: string,
  fn: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
