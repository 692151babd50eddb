import { spawn } from 'node:child_process';
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

async function withBuildLock<T>(fn: () => Promise<T>): Promise<T> {
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
    return await fn();
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
  return withBuildLock(async () => {
    // Not spawnSync: the caller starts its database (the run's demo template) meanwhile.
    if (!isFresh()) {
      const status = await new Promise<number | null>((resolve, reject) => {
        const build = spawn('npx', ['vite', 'build', '--logLevel', 'warn'], {
          cwd: webRoot,
          stdio: 'inherit',
        });
        build.once('error', reject);
        build.once('exit', resolve);
      });
      if (status !== 0) throw new Error(`vite build failed (exit ${status})`);
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), 'filiere-web-'));
    cpSync(webDist, dir, { recursive: true });
    return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
  });
}
