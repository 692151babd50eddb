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
export async function createTestDatabase<DB extends object>(): Promise<TestDatabase<DB>> {
  const adminUrl = inject('pgAdminUrl');
  const template = inject('pgTemplate');
  const name = `t_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  await withAdmin(adminUrl, async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (error) {
        // Two copies of one template at the same instant can collide; try again.
        if (attempt < 20 && /being accessed by other users/.test(String(error))) {
          await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
          continue;
        }
        throw error;
      }
    }
  });
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
