import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The web app's folder and its build (`web/dist`). */
export const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
export const webDist = path.join(webRoot, 'dist');

/**
 * One build of this checkout at a time across processes: `npm start` and the browser tests'
 * files, whatever their TMPDIR (a test run has a folder of its own). The lock is in the
 * checkout: two clones (or worktrees) on one machine build their own `web/dist` and never wait
 * for each other's build.
 */
const BUILD_LOCK = path.join(webRoot, '..', 'node_modules', '.cache', 'filiere-web-build.lock');

/**
 * What a build is made from: the app's sources and config, and this file (how it is built, so a
 * build made by an earlier version of it is made again).
 */
const SOURCES = [
  ...['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((p) =>
    path.join(webRoot, p),
  ),
  fileURLToPath(import.meta.url),
];

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce(
    (max, name) => Math.max(max, newestMtime(path.join(entry, name))),
    stat.mtimeMs,
  );
}

/**
 * A process under vitest (VITEST is set in its workers and in what they spawn: `npm start`'s
 * test) builds the app for tests: brotli at quality 5 instead of 11. The best quality took
 * ~13 of the build's ~34 CPU-s for .br files ~12 % smaller; the tests check that assets come
 * as brotli, not how small they are. Such a build is marked (a dotfile: the API does not serve
 * it) and is stale for everything else: `npm start` and `bench:web` build the product again.
 */
const forTests = process.env.VITEST !== undefined;
const TESTS_ONLY_MARK = path.join(webDist, '.built-for-tests');
const TESTS_BROTLI_QUALITY = '5';

/**
 * Whether `web/dist` exists, is newer than everything it is built from, and is a build this
 * process may use (a build for tests only serves tests).
 */
export function isWebBuildFresh(): boolean {
  const index = path.join(webDist, 'index.html');
  if (!existsSync(index)) return false;
  if (!forTests && existsSync(TESTS_ONLY_MARK)) return false;
  const newest = Math.max(...SOURCES.filter(existsSync).map(newestMtime));
  return statSync(index).mtimeMs >= newest;
}

/** Runs `fn` holding the build lock (a lock older than 5 minutes is a killed build's: taken). */
export async function withWebBuildLock<T>(fn: () => Promise<T>): Promise<T> {
  mkdirSync(path.dirname(BUILD_LOCK), { recursive: true });
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch {
      if (existsSync(BUILD_LOCK) && Date.now() - statSync(BUILD_LOCK).mtimeMs > 300_000) {
        rmSync(BUILD_LOCK, { recursive: true, force: true });
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

/**
 * Builds `web/dist` when it is missing or older than its sources, under the lock (a build beside
 * another's left the browser tests a half-written copy: blank pages in CI). Always React's
 * production build: Vite builds React's development one (several times slower in the browser,
 * with its checks and warnings) when NODE_ENV says development or test, which is what vitest
 * sets in the processes that start a build for the browser tests.
 */
export async function ensureWebBuilt(log: (msg: string) => void = () => {}): Promise<void> {
  if (isWebBuildFresh()) return;
  await withWebBuildLock(async () => {
    if (isWebBuildFresh()) return;
    log('Building the web app (sources changed or first start)…');
    const status = await new Promise<number | null>((resolve, reject) => {
      const build = spawn('npx', ['vite', 'build', '--logLevel', 'warn'], {
        cwd: webRoot,
        stdio: 'inherit',
        env: {
          ...process.env,
          NODE_ENV: 'production',
          ...(forTests ? { WEB_BROTLI_QUALITY: TESTS_BROTLI_QUALITY } : {}),
        },
      });
      build.once('error', reject);
      build.once('exit', resolve);
    });
    if (status !== 0) throw new Error(`web build failed (exit ${status})`);
    // Vite empties the folder at each build: only a build for tests carries the mark.
    if (forTests) writeFileSync(TESTS_ONLY_MARK, '');
  });
}
