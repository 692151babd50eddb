import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../db.js';
import {
  ensureTraversable,
  listenSettings,
  runningPostmaster,
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from './embedded-postgres.js';

describe('ensureTraversable', () => {
  it('adds execute bits to a private directory', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'filiere-perm-'));
    chmodSync(dir, 0o700);
    await ensureTraversable(dir);
    expect(statSync(dir).mode & 0o7777).toBe(0o711);
    rmSync(dir, { recursive: true });
  });

  it('never takes bits away (a /tmp-like directory keeps sticky and world-write)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'filiere-perm-'));
    chmodSync(dir, 0o1777);
    await ensureTraversable(dir);
    expect(statSync(dir).mode & 0o7777).toBe(0o1777);
    rmSync(dir, { recursive: true });
  });
});

describe('loading the embedded PostgreSQL launcher', () => {
  it('keeps the exit code a process sets (a failing test run must not exit 0)', () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const child = spawnSync(
      path.join(root, 'node_modules/.bin/tsx'),
      ['-e', "import('@filiere/platform').then(() => { process.exitCode = 3; });"],
      { cwd: root, encoding: 'utf8' },
    );
    expect(child.stderr).not.toContain('Error');
    expect(child.status).toBe(3);
  });

  it('loads again in a process that loaded it (test files sharing a worker process)', async () => {
    // Another module id for the same file: evaluated anew, beside the copy this file imported.
    const again = './embedded-postgres.js?evaluated-again';
    const launcher = (await import(/* @vite-ignore */ again)) as Record<string, unknown>;
    expect(typeof launcher.startEmbeddedPostgres).toBe('function');
  });
});

describe('a PostgreSQL left running on the data directory', () => {
  const root = path.resolve(import.meta.dirname, '../../..');
  const base = mkdtempSync(path.join(os.tmpdir(), 'filiere-orphan-'));
  const handles: EmbeddedPostgresHandle[] = [];
  afterAll(async () => {
    for (const handle of handles) await handle.stop().catch(() => undefined);
    // A failed case may leave the killed process's postgres running: stop it before the rm.
    const left: number[] = [];
    for (const dir of ['killed', 'running', 'stale']) {
      const postmaster = runningPostmaster(path.join(base, dir));
      if (postmaster) {
        process.kill(postmaster.pid, 'SIGINT');
        left.push(postmaster.pid);
      }
    }
    for (let i = 0; i < 100 && left.some(alive); i++) await new Promise((r) => setTimeout(r, 50));
    rmSync(base, { recursive: true, force: true });
  });

  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return !/^Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '');
    } catch {
      return false;
    }
  };
  const answers = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query('select 1 as one')).rows[0].one as number;
    } finally {
      await client.end();
    }
  };
  const start = async (dataDir: string) => {
    const handle = await startEmbeddedPostgres({ dataDir });
    handles.push(handle);
    return handle;
  };
  /**
   * A cluster this process started and still runs, the same one for every case that needs one
   * (an initdb and a start, once): started by whichever case asks first.
   */
  let runningCluster: Promise<EmbeddedPostgresHandle> | undefined;
  const running = () => (runningCluster ??= start(path.join(base, 'running')));

  it('is stopped when the Node process that started it was killed, then the start goes on', async () => {
    const dataDir = path.join(base, 'killed');
    // A Node process starting the cluster, as npm start does, then SIGKILLed: its postgres lives on.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('@filiere/platform').then(async ({ startEmbeddedPostgres }) => {
           await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)} });
           process.stdout.write('ready\\n');
           setInterval(() => {}, 1000);
         });`,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d) => String(d).includes('ready') && resolve());
      child.once('exit', (code) => reject(new Error(`the starting process exited with ${code}`)));
    });
    const orphan = runningPostmaster(dataDir)!;
    expect(orphan.owned).toBe(true);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(alive(orphan.pid)).toBe(true);
    expect(runningPostmaster(dataDir)).toMatchObject({ pid: orphan.pid, owned: false });

    const handle = await start(dataDir);
    expect(handle.stoppedOrphan).toBe(orphan.pid);
    expect(alive(orphan.pid)).toBe(false);
    expect(await answers(handle.url)).toBe(1);
    expect(runningPostmaster(dataDir)).toMatchObject({ owned: true });
  }, 120_000);

  it('is left alone while the Node process that started it still runs (another npm start)', async () => {
    const dataDir = path.join(base, 'running');
    const first = await running();
    await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(/already running/);
    expect(await answers(first.url)).toBe(1);
  }, 120_000);

  it('never touches the postmaster of another data directory named by a stale pid file', async () => {
    const other = await running();
    const dataDir = path.join(base, 'stale');
    await (await startEmbeddedPostgres({ dataDir })).stop();
    // Our pid file now names a live postgres, but one serving another directory.
    copyFileSync(
      path.join(base, 'running', 'postmaster.pid'),
      path.join(dataDir, 'postmaster.pid'),
    );
    const otherPid = runningPostmaster(path.join(base, 'running'))!.pid;
    expect(runningPostmaster(dataDir)).toBeUndefined();

    const handle = await start(dataDir);
    expect(handle.stoppedOrphan).toBeUndefined();
    expect(alive(otherPid)).toBe(true);
    expect(await answers(other.url)).toBe(1);
    expect(await answers(handle.url)).toBe(1);
  }, 120_000);
});

describe('where the cluster listens', () => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'filiere-listen-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  /** The server address of a connection made with `url` (null over a Unix socket). */
  const serverAddress = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query('select inet_server_addr()::text as addr')).rows[0].addr as
        string | null;
    } finally {
      await client.end();
    }
  };

  it('hands out a URL over its Unix socket, and still answers on loopback TCP', async () => {
    const dataDir = path.join(base, 'pg');
    const handle = await startEmbeddedPostgres({ dataDir, ephemeral: true });
    try {
      expect(new URL(handle.url).searchParams.get('host')).toBe(dataDir);
      expect(await serverAddress(handle.url)).toBeNull();
      // The same URL without its socket: host and port, as a tool reading only those takes it.
      const tcp = new URL(handle.url);
      tcp.search = '';
      expect(await serverAddress(tcp.toString())).toMatch(/^127\.0\.0\.1/);
      // Another database of the cluster keeps the socket (the tests' and the bench's URLs).
      expect(await serverAddress(withDatabase(handle.url, 'template1'))).toBeNull();
    } finally {
      await handle.stop();
    }
  }, 120_000);

  it('keeps to TCP where the socket path would pass the system limit', () => {
    const short = listenSettings('/tmp/pg');
    expect(short).toEqual({ unix_socket_directories: '/tmp/pg', listen_addresses: '127.0.0.1' });
    const long = listenSettings(`/tmp/${'d'.repeat(90)}`);
    expect(long).toEqual({ unix_socket_directories: '', listen_addresses: '127.0.0.1' });
  });
});
