import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const webDist = path.join(webRoot, 'dist');
const lockDir = path.join(os.tmpdir(), 'filiere-web-build.lock');

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce(
    (max, name) => Math.max(max, newestMtime(path.join(entry, name))),
    stat.mtimeMs,
  );
}

function isFresh(): boolean {
  const index = path.join(webDist, 'index.html');
  if (!existsSync(index)) return false;
  const sources = ['src', 'index.html', 'vite.config.ts', 'package.json'].map((p) =>
    path.join(webRoot, p),
  );
  const newest = Math.max(...sources.filter(existsSync).map(newestMtime));
  return statSync(index).mtimeMs >= newest;
}

async function withBuildLock<T>(fn: () => T): Promise<T> {
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(lockDir);
      break;
    } catch {
      // Another test file is building; a lock older than 5 minutes is stale.
      if (existsSync(lockDir) && Date.now() - statSync(lockDir).mtimeMs > 300_000) {
        rmSync(lockDir, { recursive: true, force: true });
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * Builds the web app when `web/dist` is missing or older than its sources (one
 * build at a time across test files), then returns a private copy of it so a
 * rebuild by another test run cannot pull files from under this server.
 */
export async function builtWebCopy(): Promise<{ dir: string; remove(): void }> {
  return withBuildLock(() => {
    if (!isFresh()) {
      const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
        cwd: webRoot,
        stdio: 'inherit',
      });
      if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`);
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), 'filiere-web-'));
    cpSync(webDist, dir, { recursive: true });
    return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
  });
}
