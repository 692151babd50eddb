import { sql } from 'kysely';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPool } from './db.js';
import { useTestDatabase } from './testing/index.js';
import type { PlatformTables } from './db.js';

describe('createPool', () => {
  const database = useTestDatabase<PlatformTables>();
  const pools: pg.Pool[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });

  it('survives the server closing a checked-out connection between two queries', async () => {
    const pool = createPool(database.url, { max: 2 });
    pools.push(pool);
    const client = await pool.connect();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    // As a fast shutdown does: the server ends the session while the client is lent out.
    await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(database.db);
    // The FATAL message arrives as an 'error' event on the client; without a listener it
    // would be thrown as an unhandled error and end the process (and this test run).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(client.query('select 1')).rejects.toThrow();
    client.release();
    const again = await pool.query<{ ok: number }>('select 1 as ok');
    expect(again.rows[0]!.ok).toBe(1);
  });
});
