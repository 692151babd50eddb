import os from 'node:os';
import { useTestDatabase } from '@filiere/platform/testing';
import { createPool } from './db.js';
import { describe, expect, it } from 'vitest';
import { isLocalDatabase, lowerServerPriority } from './priority.js';

const t = useTestDatabase<Record<string, never>>();

describe('background work’s priority in PostgreSQL (the API’s background thread, npm run worker)', () => {
  it('only a server on this machine is local: loopback names and addresses, sockets', () => {
    expect(isLocalDatabase('postgres://u:p@127.0.0.1:5432/db')).toBe(true);
    expect(isLocalDatabase('postgres://u:p@localhost/db')).toBe(true);
    expect(isLocalDatabase('postgres://u:p@[::1]:5432/db')).toBe(true);
    expect(isLocalDatabase('postgres://u:p@%2Fvar%2Frun%2Fpostgresql/db')).toBe(true);
    expect(isLocalDatabase('postgres://u:p@db.example.org:5432/db')).toBe(false);
    expect(isLocalDatabase('postgres://u:p@10.0.0.5/db')).toBe(false);
  });

  it('each new connection of the pool is served by a server process at that nice value', async () => {
    const pool = createPool(t.url, { max: 2 });
    lowerServerPriority(pool, t.url, 7);
    try {
      const client = await pool.connect();
      try {
        const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
        const pid = rows[0]!.pid;
        // The renice is sent on connect, ahead of this query: it has run by now.
        expect(os.getPriority(pid)).toBeGreaterThanOrEqual(7);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });
});
