import { readlinkSync } from 'node:fs';
import os from 'node:os';
import type pg from 'pg';

/**
 * Lowers the calling thread's scheduling priority to `nice` (Linux: a thread is a task with
 * its own nice value, named by its id in /proc/thread-self). Answers the thread's nice value
 * afterwards, or null where that cannot be done (another system, a refused call): the thread
 * then simply runs at the process's priority.
 */
export function lowerThreadPriority(nice: number): number | null {
  if (nice <= 0) return null;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return null;
    os.setPriority(tid, Math.min(19, Math.max(os.getPriority(tid), nice)));
    return os.getPriority(tid);
  } catch {
    return null;
  }
}

/** A database on this machine: its server processes are ours to renice (loopback or socket). */
export function isLocalDatabase(url: string): boolean {
  const { hostname } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  return (
    host === '' ||
    host === 'localhost' ||
    host === '::1' ||
    host.startsWith('127.') ||
    host.startsWith('%2F') ||
    host.startsWith('/')
  );
}

/**
 * The PostgreSQL server processes (backends) that serve this pool's connections run at `nice`
 * too, when the server runs on this machine: the background thread's statements (projector
 * batches, payouts) then yield the cores to the API's requests and commands in PostgreSQL as
 * in Node. Best effort: a remote server, or one run by another user we may not renice, keeps
 * its priority (the call fails and is ignored).
 */
export function lowerServerPriority(pool: pg.Pool, url: string, nice: number): void {
  if (!isLocalDatabase(url)) return;
  pool.on('connect', (client) => {
    client
      .query<{ pid: number }>('select pg_backend_pid() as pid')
      .then(({ rows }) => {
        const pid = rows[0]?.pid;
        if (pid) os.setPriority(pid, Math.min(19, Math.max(os.getPriority(pid), nice)));
      })
      .catch(() => undefined);
  });
}
